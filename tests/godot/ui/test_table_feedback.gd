extends GdTestSuite
## What the table tells a beginner: a hint's selection is replaced by the next tap and cleared by
## a right-click or a tap on the felt; illegal plays say why; every seat's messages read
## naturally in both languages; the history keeps its newest row in view and shows the plays as
## cards; the turn clock shows seconds and warns; a pacing profile from a .tres drives the
## table's durations.

const Pointer := preload("res://tests_godot/ui/pointer.gd")

var table: Table
var pointer: Pointer


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	pointer = Pointer.new(get_viewport())


func after_each() -> void:
	Settings.reset_for_tests()
	TranslationServer.set_locale("en")


func _open(config: MatchConfig, pacing: PacingProfile = null) -> void:
	table = load("res://table/table.tscn").instantiate()
	var params := {config = config}
	if pacing != null:
		params.pacing = pacing
	table.open(params)
	add_child(table)
	await frames(3)


func _training(seed: int) -> MatchConfig:
	return MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = seed, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false})


func _card_point(id: int) -> Vector2:
	var hand: HandView = table.hand
	return hand.global_position + hand.visible_rect_of(id).get_center()


func _my_turn(follow: bool) -> bool:
	return await wait_until(func() -> bool:
		if table.is_idle() and table.duty == &"play" and table.can_pass != follow:
			# Not the kind of turn wanted: play the smallest card / pass to move on.
			if table.can_pass:
				table._on_pass_pressed()
			else:
				table.hand.set_selected(PackedInt32Array([table.hand.display_order()[0]]))
				table.play_selection(-1)
		return table.is_idle() and table.duty == &"play" and table.can_pass == follow, 30.0)


func test_a_tap_after_a_hint_starts_a_new_selection() -> void:
	await _open(_training(5))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var hand: HandView = table.hand
	var hinted := PackedInt32Array()
	for i in 5:  # a hint that selects cards (the first may suggest passing)
		pointer.tap(table.hint_button.get_global_rect().get_center())
		hinted = hand.selected_ids()
		if not hinted.is_empty():
			break
	if not expect(not hinted.is_empty(), "a hint selected cards"):
		return
	expect(table.training._why.visible, "the why panel explains the hint")
	var hint_text: String = table.training._why_label.text
	var other := -1
	for id in hand.display_order():
		if not (id in hinted):
			other = id
			break
	pointer.tap(_card_point(other))
	expect_eq(hand.selected_ids(), PackedInt32Array([other]), "a tap on another card starts a new selection")
	for id in hinted:
		expect(not table.layer.find_view(id).hinted, "no hint border left on card %d" % id)
	expect(not table.training._why.visible or table.training._why_label.text != hint_text,
			"the hint's text is gone with the hint")
	# Right-click on the hand clears the selection.
	var right := InputEventMouseButton.new()
	right.button_index = MOUSE_BUTTON_RIGHT
	right.pressed = true
	right.position = _card_point(other)
	right.global_position = right.position
	right.button_mask = MOUSE_BUTTON_MASK_RIGHT
	get_viewport().push_input(right, true)
	var up: InputEventMouseButton = right.duplicate()
	up.pressed = false
	up.button_mask = 0
	get_viewport().push_input(up, true)
	await frames(1)
	expect(hand.selected_ids().is_empty(), "right-click clears the selection")
	# A tap on the felt clears it too.
	hand.set_selected(PackedInt32Array([other]))
	var m: Rect2 = table.middle
	pointer.tap(table.frame.global_position + m.get_center() + Vector2(0, 4))
	expect(hand.selected_ids().is_empty(), "a tap on the felt clears the selection")
	# A tap on a hinted card takes just that card out.
	pointer.tap(table.hint_button.get_global_rect().get_center())
	var again := hand.selected_ids()
	if again.size() >= 2:
		await sleep(350)  # not a double tap
		pointer.tap(_card_point(again[0]))
		var rest := again.slice(1)
		expect_eq(hand.selected_ids(), rest, "the rest of the hint stays selected")
		expect(not hand.is_hint_selection(), "but it is no longer the hint")


func test_illegal_plays_say_why() -> void:
	await _open(_training(5))
	expect(await _my_turn(true), "a turn where I follow")
	var hand: HandView = table.hand
	var to_beat: Play = table.table_play
	expect(to_beat != null, "something is on the table")
	var ids := hand.display_order()
	# Two cards of different ranks that make no combination.
	var pick := PackedInt32Array()
	for id in ids:
		if pick.is_empty() or (Cards.rank(id) != Cards.rank(pick[0]) and not Cards.is_wild(id, table.level)
				and not Cards.is_wild(pick[0], table.level) and not Cards.is_joker(id) and not Cards.is_joker(pick[0])):
			pick.append(id)
		if pick.size() == 2:
			break
	hand.set_selected(pick)
	table.play_selection(-1)
	expect_eq(table.toast_label.text, tr("ERR_1"), "not a combination")
	# The smallest single against a higher play: it names what is on the table and who played it.
	var info: Selection = table.controller.advice.selection(PackedInt32Array([ids[0]]))
	if info != null and info.playable.is_empty():
		hand.set_selected(PackedInt32Array([ids[0]]))
		table.play_selection(-1)
		var text: String = table.toast_label.text
		expect(PlayText.describe(to_beat) in text, "names the play to beat (%s)" % text)
		expect(tr("SEAT_%d" % table.table_play_seat) in text, "and its seat (%s)" % text)
		expect(text != tr("CANNOT_PLAY_SELECTION"), "not the old catch-all")
	expect(table.status.visible == false, "the message takes the prompt row while it shows")


func test_every_seat_reads_naturally_in_both_languages() -> void:
	var bad_en := ["You goes", "You leads", "You gives", "You returns", "gives You", "to You", "You resists",
		"· You leads", "Partner takes the lead: You"]
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		# The player at seat 0, a spectator of four AIs (seat 0 is then "South", not "You"), and a
		# hot-seat player at another seat.
		for view in [[0, false], [0, true], [2, false]]:
			var local: int = view[0]
			var spec: bool = view[1]
			for seat in 4:
				var texts: Array[String] = [
					Wording.lead(false, seat, local, spec), Wording.lead(true, seat, local, spec),
					Wording.finished(seat, 1, local, spec), Wording.finished(seat, 3, local, spec),
					Wording.tribute_phase(false, PackedInt32Array([seat]), local, spec),
					Wording.tribute_phase(true, PackedInt32Array([seat]), local, spec),
					Wording.tribute_phase(false, PackedInt32Array([seat, (seat + 2) % 4]), local, spec),
				]
				for other in 4:
					if other != seat:
						texts.append(Wording.exchange(true, seat, other, local, spec, "♥A"))
						texts.append(Wording.exchange(false, seat, other, local, spec, "♠7"))
				for t in texts:
					expect(not ("{" in t) and t.strip_edges() != "", "%s: filled in (%s)" % [locale, t])
					if locale == "en":
						for b: String in bad_en:
							expect(not (b in t), "en, seat %d seen from %d: '%s' contains '%s'" % [seat, local, t, b])
						expect(t.substr(0, 1) == t.substr(0, 1).to_upper(), "en: starts with a capital: %s" % t)
					var you := "you" if locale == "en" else "你"
					if seat == local and not spec:
						expect(you in t.to_lower(), "%s: the player's own line speaks to them: %s" % [locale, t])
					elif spec:
						expect(not (you in t.to_lower()), "%s: a spectator is never 'you': %s" % [locale, t])
		expect(Wording.timed_out(true) != Wording.timed_out(false, "Pair 5"), "%s: a timeout pass is not 'played for you'" % locale)
	TranslationServer.set_locale("en")
	expect_eq(Wording.finished(0, 1, 0), "You go out · 1st")
	expect_eq(Wording.exchange(true, 3, 0, 0, false, "♥A"), "West gives you ♥A as tribute")
	expect_eq(Wording.lead(false, 0, 0), "Table cleared · you lead")
	expect_eq(Wording.timed_out(true), "Time's up: you passed.")


## Issue 38 item 10: the tribute's lines say who pays whom, to the reader ("North and you pay
## tributes", never "Tribute: North, you must pay", which reads as addressed to North); once the
## player has paid, their line says so; the prompt names who receives.
func test_the_tribute_lines_say_who_pays_whom() -> void:
	var p := func(seats: Array) -> PackedInt32Array: return PackedInt32Array(seats)
	expect_eq(Wording.tribute_phase(false, p.call([0]), 0, false, p.call([1])), "You pay a tribute to East")
	expect_eq(Wording.tribute_phase(false, p.call([0, 2]), 0, false, p.call([1, 3])), "North and you pay tributes to East and West")
	expect_eq(Wording.tribute_phase(false, p.call([2, 0]), 0), "North and you pay tributes")
	expect_eq(Wording.tribute_phase(false, p.call([3]), 0, false, p.call([0])), "West pays you a tribute")
	expect_eq(Wording.tribute_phase(false, p.call([1, 3]), 0, false, p.call([0, 2])), "East and West pay tributes to North and you")
	expect_eq(Wording.tribute_phase(false, p.call([1, 3]), -1, true, p.call([0, 2])), "East and West pay tributes to South and North")
	expect_eq(Wording.tribute_phase(true, p.call([0, 2]), 0), "North and you resist the tribute (both big jokers)")
	expect_eq(Wording.tribute_paid("♠A", 1, PackedInt32Array(), 0), "You paid ♠A to East")
	expect_eq(Wording.tribute_paid("♠A", -1, p.call([2]), 0), "You paid ♠A — waiting for North")
	expect_eq(Wording.tribute_prompt(p.call([1]), 0), "Choose your tribute for East (highlighted), then Give tribute.")
	expect_eq(Wording.tribute_prompt(p.call([1, 3]), 0), "Choose your tribute for East or West (highlighted), then Give tribute.")
	TranslationServer.set_locale("zh_CN")
	expect_eq(Wording.tribute_phase(false, p.call([0]), 0, false, p.call([1])), "你向下家进贡")
	expect_eq(Wording.tribute_phase(false, p.call([0, 2]), 0, false, p.call([1, 3])), "对家和你向下家和上家进贡")
	expect_eq(Wording.tribute_phase(false, p.call([3]), 0, false, p.call([0])), "上家向你进贡")
	expect_eq(Wording.tribute_paid("♠A", 1, PackedInt32Array(), 0), "你已向下家进贡 ♠A")
	TranslationServer.set_locale("en")

	# At the table: a double tribute the player is part of; they pay; the engine routes both.
	await _open(MatchConfig.with({seed = 3, save_record = false, turn_timer = 0}))
	table.controller.set_paused(true)
	var phase := TributePhaseEvent.new()
	phase.payers = p.call([0, 2])
	await table.events.tribute.on_tribute_phase(phase)
	var panel: TributePanel = table.tribute_panel
	expect(panel.lines()[0].begins_with("North and you pay tributes"), "the phase: %s" % [panel.lines()])
	var card := Cards.from_notation("SA")[0]
	table.events.tribute.on_you_paid(card)
	expect_eq(panel.lines()[0], "You paid ♠A — waiting for North", "after paying, before the routing")
	for given: Array in [[2, 3, Cards.from_notation("HK")[0]], [0, 1, card]]:
		var e := TributeGivenEvent.new()
		e.from = given[0]
		e.to = given[1]
		e.card = given[2]
		await table.events.tribute.on_tribute_given(e)
	expect_eq(panel.lines()[0], "You paid ♠A to East", "routed: to whom")
	expect_eq(panel.lines().size(), 2, "North's tribute has its own line, the player's no second one: %s" % [panel.lines()])
	for l in panel.lines():
		expect(not ("must pay" in l), "no 'must pay' left: %s" % l)
	table.queue_free()
	await frames(1)


## Issue 38 item 13a: AAA+33 played with the ♥4 wild (level 4) as the third A reads "A A A(♥4
## wild) 3 3" in the history, and the play zone shows the wild among the As, standing for an A.
func test_a_wild_shows_what_it_stands_for() -> void:
	var ids := Cards.from_notation("SA CA S3 D3 H4")
	var play := Play.of(ids, 4)
	expect_eq(play.name_key, "play.three_with_two")
	var wild := Cards.from_notation("H4")[0]
	var order: Array = PlayText.arranged(play, 4).map(func(c: Array) -> int: return c[0])
	expect_eq(Cards.notation_list(PackedInt32Array(order)), Cards.notation_list(Cards.from_notation("SA CA H4 S3 D3")),
		"the wild with the As it completes")
	expect_eq(PlayText.wild_cards_text(play, 4), "A A A(♥4 wild) 3 3")
	var holder := Control.new()
	holder.size = Vector2(320, 260)
	add_child(holder)
	var history := HistoryPanel.create()
	holder.add_child(history)
	history.level = 4
	history.add(3, play)
	expect(history.lines()[0].ends_with("West: %s = A A A(♥4 wild) 3 3" % PlayText.describe(play)), "the history line: %s" % [history.lines()])
	TranslationServer.set_locale("zh_CN")
	expect_eq(PlayText.wild_cards_text(play, 4), "A A A(♥4配) 3 3")
	TranslationServer.set_locale("en")
	holder.queue_free()
	# At the table: the wild's card stands among the As, drawn as an A (its wild badge stays).
	await _open(MatchConfig.with({seed = 3, save_record = false, turn_timer = 0}))
	table.controller.set_paused(true)
	var zone: PlayZone = table.zone
	zone.show_play(1, ids, zone.global_position, [], 4, play)
	expect_eq(Cards.notation_list(zone.shown(1)), Cards.notation_list(PackedInt32Array(order)), "the play zone's order")
	var view: CardView = table.layer.find_view(wild)
	expect(view != null and view.stands_for == 14, "the wild is drawn standing for an A")
	zone.reset()
	expect(view.stands_for == 0 or table.layer.find_view(wild) == null, "a card back in the pool is itself again")
	table.queue_free()
	await frames(1)


## Three pairs Q–A, as the engine describes the play (the history's lines name it).
static func _three_pairs() -> Play:
	return Play.of(Cards.from_notation("SQ HQ SK HK SA HA"), 2, "ThreePair")


## A history panel of `size` in a holder of its own (free the holder after the test).
func _history_at(size: Vector2) -> HistoryPanel:
	var holder := Control.new()
	holder.size = Vector2(400, 400)
	add_child(holder)
	var history := HistoryPanel.create()
	holder.add_child(history)
	history.position = Vector2.ZERO
	history.size = size
	return history


func test_history_keeps_the_newest_line_in_view_and_ranges_whole() -> void:
	Settings.set_value(&"history_rounds", 5)
	var history := _history_at(Vector2(240, 260))
	var holder := history.get_parent()
	var pairs := _three_pairs()
	for r in 5:
		history.new_round()
		for seat in 4:
			history.add(seat, pairs if seat % 2 == 0 else null)
	await frames(3)
	expect(history.newest_in_view(), "the newest line is scrolled into view")
	var range_text := PlayText.describe(pairs)
	expect("Q–A" in range_text, "a range (%s)" % range_text)
	# The player's play shows as its cards (the history is cards since issue 54).
	var found := false
	for row in history.turn_rows():
		if row.text() == tr("SEAT_0") and not row.cards().is_empty():
			found = true
			expect_eq(Array(row.cards()).map(func(id: int) -> int: return Cards.rank(id)),
				Array(Cards.sorted(pairs.cards, history.level)).map(func(id: int) -> int: return Cards.rank(id)), "the player's row shows the pairs")
	expect(found, "a history row for the player")
	# A new round drops the oldest (fewer lines than before): the view follows the newest line
	# down, not left scrolled past it onto an empty space (seen online: one line at the top of
	# an empty panel, the rest above it).
	var ends_low := func() -> bool:
		var box := history.find_child("Scroll", true, false) as Control
		var last := box.get_child(0).get_child(box.get_child(0).get_child_count() - 1) as Control
		return box.get_global_rect().end.y - last.get_global_rect().end.y <= last.size.y + 8.0
	expect(ends_low.call(), "the newest line is at the bottom of the view")
	history.new_round()
	history.add(1, pairs)
	await frames(3)
	expect(history.newest_in_view(), "the newest line is in view after the oldest round went")
	expect(ends_low.call(), "and at the bottom of the view, no empty space below it")
	expect(history.lines_whole(), "every line in view whole")
	holder.queue_free()


## Lines that wrap to another width than the one they were added at (issue 38: in training the
## history showed an empty list with a scroll bar until Hint was pressed): filled while the panel
## had no size yet, then given one, then widened, the newest line stays in view — the room kept
## below it for whole lines follows the lines' heights, not the ones they had at the old width.
func test_history_follows_its_lines_when_its_width_changes() -> void:
	var history := _history_at(Vector2.ZERO)
	var holder := history.get_parent()
	var pairs := _three_pairs()
	history.add_note(Wording.tribute_phase(false, PackedInt32Array([3]), 0, false))
	for r in 4:
		history.new_round()
		for seat in 4:
			history.add(seat, pairs if seat % 2 == 0 else null)
	await frames(3)
	for width: float in [240.0, 120.0, 320.0]:
		history.size = Vector2(width, 260)
		await frames(3)
		expect(history.newest_in_view(), "%d wide: the newest line is in view" % width)
		expect(history.lines_whole(), "%d wide: every line in view whole" % width)
	holder.queue_free()


func test_the_turn_clock_shows_seconds_and_warns() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 6, ai_min_think_ms = 0, turn_time_limit_s = 8,
		save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	await frames(2)
	var label: Label = table.clock_label
	expect(table.clock.visible, "the clock shows")
	expect(label.text.begins_with("8") or label.text.begins_with("7"), "with the seconds left (%s)" % label.text)
	expect(not table.clock_warning(), "no warning with 8 s left")
	expect(await wait_until(func() -> bool: return table.clock_warning(), 6.0), "a warning in the last 5 s")
	var secs := label.text.to_int()
	expect(secs <= 5 and secs >= 1, "%d s left when it warns" % secs)
	# The player's Pass from the last time round is cleared when the turn comes back.
	var passed := await wait_until(func() -> bool: return table.zone.pass_shown(0) or table.duty != &"play", 8.0)
	expect(passed, "the clock ran out")
	var again := await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play", 20.0)
	if again:
		expect(not table.zone.pass_shown(0), "my old Pass is gone when my turn comes round")


func test_a_pacing_profile_from_a_tres_drives_the_durations() -> void:
	var path := "user://test_pacing.tres"
	var custom: PacingProfile = load("res://resources/style/pacing_default.tres").duplicate()
	custom.play_s = 0.77
	custom.min_play_visible_s = 1.6
	custom.clock_warning_s = 9.0
	expect_eq(ResourceSaver.save(custom, path), OK, "the test writes its pacing .tres")
	var loaded: PacingProfile = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	Settings.set_value(&"anim_speed", 2.0)
	Settings.set_value(&"low_perf", false)
	await _open(_training(5), loaded)
	expect_eq(table.pacing.play_s, 0.77, "the table uses the loaded profile")
	expect(is_equal_approx(table.zone.play_time(), 0.385), "a play flies for play_s / speed (%f)" % table.zone.play_time())
	expect(is_equal_approx(table.events.min_visible_time(), 0.8), "a play stays min_play_visible_s / speed (%f)" % table.events.min_visible_time())
	var default_table: PacingProfile = load("res://resources/style/pacing_default.tres")
	expect(default_table.play_s != 0.77, "the default profile is untouched")
	table.show_clock(8.5)
	expect(table.clock_warning(), "clock_warning_s comes from the profile (8.5 s left warns at 9 s)")
	Settings.set_value(&"anim_speed", 0.0)
	expect_eq(table.events.min_visible_time(), 0.0, "animations off: no waiting")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
