extends GdTestSuite
## Rough edges an hour of play found (issue 24): the status line and the lit badge follow the
## table without lagging a step.

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()


func after_each() -> void:
	Settings.reset_for_tests()
	if table != null and is_instance_valid(table):
		table.queue_free()
	table = null


func _open(fields: Dictionary) -> void:
	var base := {mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0, turn_timer = 0, save_record = false}
	base.merge(fields, true)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with(base)})
	add_child(table)
	await frames(2)


## While a play or a pass is shown (its reading time), the seat that made it is no longer lit and
## the status line no longer waits for it ("Waiting for West…" with West's play on the table).
func test_the_status_line_does_not_lag_a_step() -> void:
	Settings.set_value(&"anim_speed", 2.0)  # plays stay on screen for a moment, quickly
	await _open({})
	table.controller.set_auto_play(true)
	var seen := []
	table.event_handled.connect(func(e: MatchEvent) -> void:
		var sig := e.signal_name
		if sig == &"cards_played" or sig == &"passed" or sig == &"turn_started":
			var seat := int(e.get(&"seat"))
			seen.append([sig, seat, table.status.text, table.badges[seat].active]))
	expect(await wait_until(func() -> bool: return seen.size() >= 40 or table.modal.is_open(), 60.0), "a stretch of play")
	var checked := 0
	for s: Array in seen:
		var seat: int = s[1]
		if seat == 0:
			continue
		var waiting := tr("WAITING_FOR_FMT").format({seat = tr("SEAT_%d" % seat)})
		if s[0] == &"turn_started":
			expect(s[3], "seat %d is lit on its turn" % seat)
			continue
		checked += 1
		expect(s[2] != waiting, "after %s of seat %d the status no longer reads '%s'" % [s[0], seat, waiting])
		expect(not s[3], "after %s of seat %d its badge is no longer lit" % [s[0], seat])
	expect(checked >= 10, "plays and passes checked (%d)" % checked)


## While the end-of-deal panel is up, the card counter still shows that deal (not the next one's
## 81 unseen cards).
func test_the_card_counter_stays_on_the_ended_deal_under_its_panel() -> void:
	Settings.set_value(&"anim_speed", 0.0)
	await _open({seed = 7})
	table.controller.set_auto_play(true)
	var totals := []
	table.deal_panel_shown.connect(func(_e: DealEndedEvent) -> void:
		var shown: PackedInt32Array = table.counter_view.shown()
		var total := 0
		for n in shown:
			total += n
		totals.append(total))
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 90.0), "a deal ends")
	for i in 20:
		await frames(1)
	var shown: PackedInt32Array = table.counter_view.shown()
	var total := 0
	for n in shown:
		total += n
	expect(totals.size() == 1 and totals[0] < 81, "the ended deal's counts when the panel opens: %s" % [totals])
	expect(total < 81, "and while it stays up (%d unseen)" % total)


## During a tribute and its return the lines stand in the side row's centre, whole: never an
## empty dark box under North's badge (issue 24: the lines' labels, allowed to trim, asked for no
## width and the panel shrank to nothing).
func test_the_tribute_lines_are_shown_whole() -> void:
	Settings.set_value(&"anim_speed", 0.0)
	await _open({seed = 8, ai_levels = [1, 2, 1]})
	table.controller.set_auto_play(true)
	var checks := [0]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		var sig := e.signal_name
		if sig != &"tribute_phase" and sig != &"tribute_given" and sig != &"card_returned":
			return
		var panel: TributePanel = table.tribute_panel
		expect(panel.visible, "the tribute panel is shown after %s" % sig)
		var labels := panel.find_children("*", "Label", true, false)
		expect(not labels.is_empty(), "with its lines")
		for l: Label in labels:
			var font := l.get_theme_font(&"font")
			var fs := l.get_theme_font_size(&"font_size")
			var width := font.get_string_size(l.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x
			expect(l.size.x + 1.0 >= width, "'%s' is shown whole (%.0f of %.0f px)" % [l.text, l.size.x, width])
			expect(panel.get_global_rect().encloses(l.get_global_rect().grow(-0.5)), "'%s' inside its panel" % l.text)
		checks[0] += 1)
	var reached := await wait_until(func() -> bool:
		if table.modal.is_open():
			table.modal.press(&"next")
		return checks[0] >= 3, 120.0)
	expect(reached, "a tribute and its exchanges were shown (%d)" % checks[0])


## The side badges show their words whole at 1280×720 in both languages ("Opponents · Nor…"
## before), thinking or not.
func test_the_badges_show_their_words_whole() -> void:
	Settings.set_value(&"anim_speed", 0.0)
	get_window().size = Vector2i(1280, 720)
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		for level in [1, 2, 3]:
			await _open({ai_levels = [level, level, level]})
			table.controller.set_paused(true)
			for thinking in [false, true]:
				for seat in range(1, 4):
					var b: SeatBadge = table.badges[seat]
					b.thinking = thinking
					await frames(1)
					for node in [&"SeatName", &"Sub"]:
						var l: Label = b.find_child(String(node), true, false)
						var font := l.get_theme_font(&"font")
						var width := font.get_string_size(l.text, HORIZONTAL_ALIGNMENT_LEFT, -1, l.get_theme_font_size(&"font_size")).x
						expect(width <= l.size.x + 0.5, "%s, level %d, seat %d%s: '%s' whole (%.0f of %.0f px)" % [
							locale, level, seat, " thinking" if thinking else "", l.text, l.size.x, width])
			table.queue_free()
			table = null
			await frames(1)
	TranslationServer.set_locale("en")


## The top bar's switches (Heat map, Auto-play, History) look lit when on and dim when off — not
## brighter when off, as with the plain button's darker "pressed" look.
func test_the_top_bar_switches_look_on_when_on() -> void:
	await _open({})
	for b: Button in [table.heat_button, table.auto_button, table.history_button]:
		var off := (b.get_theme_stylebox(&"normal") as StyleBoxFlat).bg_color
		var on := (b.get_theme_stylebox(&"pressed") as StyleBoxFlat).bg_color
		var on_hover := (b.get_theme_stylebox(&"hover_pressed") as StyleBoxFlat).bg_color
		expect(on.get_luminance() > off.get_luminance() + 0.3, "%s: on (%.2f) is clearly brighter than off (%.2f)" % [
			b.name, on.get_luminance(), off.get_luminance()])
		expect(on_hover.get_luminance() > off.get_luminance() + 0.3, "%s: on stays lit under the pointer" % b.name)
		var text_on := b.get_theme_color(&"font_pressed_color")
		expect(absf(text_on.get_luminance() - on.get_luminance()) > 0.4, "%s: its text reads on the lit button" % b.name)


## The history follows the newest line with whole lines at the top too (issue 24: its top line
## was cut under the title), at 1280×720.
func test_the_history_shows_whole_lines() -> void:
	Settings.set_value(&"anim_speed", 2.0)
	Settings.set_value(&"history_open", true)
	get_window().size = Vector2i(1280, 720)
	await _open({seed = 12})
	table.controller.set_auto_play(true)
	var plays := [0]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e is CardsPlayedEvent or e is PassedEvent:
			plays[0] += 1)
	var scroll: ScrollContainer = table.history.find_child("Scroll", true, false)
	var overflowing := 0
	for step in 30:
		var at: int = plays[0]
		if not await wait_until(func() -> bool:
				if table.modal.is_open():
					table.modal.press(&"next")
				return plays[0] > at, 30.0):
			break
		await frames(3)
		if scroll.get_v_scroll_bar().max_value > scroll.size.y + 1.0:
			overflowing += 1
			expect(table.history.lines_whole(), "after %d plays and passes every line in view is whole" % plays[0])
			expect(table.history.newest_in_view(), "and the newest one is in view")
	expect(overflowing >= 5, "the history overflowed its panel (%d times)" % overflowing)


## The AI's pace (issue 24: three AI plays within ~3 s of the table opening; after a bomb, three
## passes and the table clearing in under 3 s): every play and every pass stays on screen for the
## pacing minimum before the next event is drawn, a bomb for its banner too, and a new deal is
## seen before the first play.
func test_every_play_and_pass_stays_readable() -> void:
	Settings.set_value(&"anim_speed", 2.0)
	await _open({seed = 3})
	table.controller.set_auto_play(true)
	var shown := []  # [signal, seat, bomb, ms]
	table.event_shown.connect(func(e: MatchEvent) -> void:
		var bomb: bool = e is CardsPlayedEvent and (e as CardsPlayedEvent).play.bomb
		var seat: Variant = e.get(&"seat")
		shown.append([e.signal_name, -1 if seat == null else int(seat), bomb, Time.get_ticks_msec()]))
	# A wait ends on a frame no sooner than its time (TableEvents.wait); the slack is the clock's
	# whole milliseconds. The longest frame is checked so that the timing means something.
	var longest := [0.0]
	var track := func() -> void: longest[0] = maxf(longest[0], get_process_delta_time())
	get_tree().process_frame.connect(track)
	expect(await wait_until(func() -> bool: return shown.size() >= 150 or table.modal.is_open(), 90.0), "a stretch of play")
	get_tree().process_frame.disconnect(track)
	var slack := 2.0
	var least_ms := PacingProfile.scaled(table.pacing.min_play_visible_s) * 1000.0 - slack
	var bomb_ms := PacingProfile.scaled(table.pacing.banner_hold_s) * 1000.0 - slack
	var checked := 0
	for i in shown.size() - 1:
		var s: Array = shown[i]
		var held: float = shown[i + 1][3] - s[3]
		if s[0] == &"cards_played" or s[0] == &"passed":
			checked += 1
			expect(held >= least_ms, "%s of seat %d stayed %d ms (at least %d; next %s)" % [s[0], s[1], held, least_ms, shown[i + 1][0]])
			if s[2]:
				expect(held >= bomb_ms, "a bomb stayed %d ms (its banner: %d)" % [held, bomb_ms])
	expect(checked >= 20, "plays and passes timed (%d)" % checked)
	expect(longest[0] < 0.2, "frames short enough to time the table (longest %d ms)" % (longest[0] * 1000.0))
	var deal_at := -1
	for s: Array in shown:
		if s[0] == &"deal_started":
			deal_at = s[3]
		elif s[0] == &"cards_played" and deal_at >= 0:
			var wait_ms: float = s[3] - deal_at
			expect(wait_ms >= PacingProfile.scaled(DealStartEvents.DEAL_BANNER_S) * 1000.0,
				"the first play came %d ms after the deal was shown" % wait_ms)
			break


## Online the server does not wait for the table: when actions arrive faster than the table shows
## them (an AI action a second; a trick's end takes the table longer), its waits shrink until it
## has caught up, and every action is still shown. Offline (the engine waits for the table) no
## wait is shortened. Before, the online table fell seconds behind in a deal, and the deal's panel
## came up only after the server's break (issue 24's hour of play).
func test_the_table_catches_up_when_actions_come_faster_than_it_shows_them() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	await _open({})
	# Offline: a stretch of AI play, the engine waiting for the table: nothing is hurried.
	table.controller.set_auto_play(true)
	var handled := [0]
	var burst: Array[MatchEvent] = []
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e in burst:
			handled[0] += 1)
	var played := [0]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e is CardsPlayedEvent:
			played[0] += 1)
	expect(await wait_until(func() -> bool: return played[0] >= 6, 60.0), "offline play went on")
	expect_eq(table.events.catch_up_waits, 0, "offline, no wait is shortened")
	table.controller.set_auto_play(false)
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play", 60.0), "the player's turn")
	# Six passes arrive at once, as from a server ahead of the table.
	for i in 6:
		burst.append(MatchEvents.from_dict({"signal": &"passed", "seat": 1 + i % 3}))
		table.events.enqueue(burst[-1])
	expect(await wait_until(func() -> bool: return handled[0] == 6 and table.is_idle(), 30.0), "every pass shown")
	# The first pass is shown as it comes (nothing behind it yet); the next three have two or more
	# behind them; the last two are shown at full length.
	expect_eq(table.events.catch_up_waits, 3, "the waits with two or more actions behind them were shortened")
