extends GdTestSuite
## The table's layout can fail a test: a training match is played through (the advisor's first
## hint for the player) in a SubViewport whose size changes live between 1280×720, 1024×768
## (4:3), 2340×1080 (phone) and 2560×1080 (21:9) at every stop — the player's lead and follows,
## tribute and return, the end-of-deal panel, with the history open or closed and the AI debug
## overlay on. At each size it collects the global rectangles of the named table elements (seat
## badges, each seat's play, the status line, banner, toast, readings, buttons, clock, hand cards
## and their labels, sidebar, card counter, tribute lines, the panel) and fails on any overlap
## that is not designed (the modal panel over the dimmed table is) and on anything outside the
## safe area (the frame). Also: the hand's cards follow a resize, and a bomb's shake ends where
## the frame rests.

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")
const Probe := preload("res://tests_godot/ui/layout_probe.gd")
const TableAt := preload("res://tests_godot/ui/table_at.gd")
const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080), Vector2i(2560, 1080), Vector2i(1560, 720)]

var table: Table
var viewport: SubViewport
var _problems := {}  # message -> true (each distinct problem reported once)
var _checked := 0


func before_each() -> void:
	TableAt.reset_settings(true, true)


func after_each() -> void:
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 240.0


func _open(config: MatchConfig, at: Vector2i) -> void:
	viewport = SubViewport.new()
	viewport.size = at
	viewport.disable_3d = true
	add_child(viewport)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	viewport.add_child(table)
	await frames(3)


func _resize(to: Vector2i) -> void:
	viewport.size = to
	await frames(3)  # the SafeArea sorts, the table lays out (a badge's growth one frame later)


# --- checking -------------------------------------------------------------------------------------

func _elements() -> Dictionary:
	return Probe.elements(table)


func _check(where: String) -> void:
	_checked += 1
	for p in Probe.problems(table, where):
		_problem(p)


func _problem(message: String) -> void:
	# One report per kind of problem (the size and state are in the message).
	if _problems.size() < 40 and not _problems.has(message):
		_problems[message] = true
		fail(message)


## Checks the layout at every size, resizing live from the current one, ending where it began.
func _check_all_sizes(state: String) -> void:
	var start := viewport.size
	for s in SIZES:
		await _resize(s)
		_check("%s at %dx%d" % [state, s.x, s.y])
	await _resize(start)
	_check("%s back at %dx%d" % [state, start.x, start.y])


# --- the tests -------------------------------------------------------------------------------------

func test_no_undesigned_overlap_in_any_state_at_any_size() -> void:
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 1, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false, rules = "competition"}), SIZES[0])
	var states := {}
	var stops := 0
	var deals_ended := 0
	var deadline := Time.get_ticks_msec() + 200000
	while Time.get_ticks_msec() < deadline and deals_ended < 2:
		await frames(1)
		if table.modal.is_open():
			if not states.has("end of deal"):
				# The players who did not go out lay the cards they still held in front of their
				# seats (the player's own stay in the hand).
				for seat in 4:
					var laid: int = table.zone.shown(seat).size()
					if table.places[seat] == 0 and seat != table.local_seat:
						expect_eq(laid, table.counts[seat], "seat %d's %d cards left lie in front of it" % [seat, table.counts[seat]])
					elif table.places[seat] > 0:
						expect_eq(laid, 0, "seat %d went out: no cards in front of it" % seat)
			states["end of deal"] = true
			await _check_all_sizes("end of deal")
			deals_ended += 1
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		if table.duty == &"tribute" or table.duty == &"return":
			states[String(table.duty)] = true
			await _check_all_sizes(String(table.duty))
			var options: PackedInt32Array = table.controller.tribute_options() if table.duty == &"tribute" else table.controller.return_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
			continue
		if table.duty != &"play":
			continue
		stops += 1
		var state := "follow" if table.can_pass else "lead"
		if table.tribute_info_shown():
			state += " after the tribute"
		states[state] = true
		# Every third stop with the history closed (the sidebar still holds the AI debug overlay).
		var history_open := stops % 3 != 2
		if table.history_button.button_pressed != history_open:
			table.history_button.button_pressed = history_open
			table._toggle_history()
		await _check_all_sizes("%s #%d (history %s)" % [state, stops, "open" if history_open else "closed"])
		_play_first_hint()
	expect(deals_ended >= 1, "a deal was played to its end")
	for s in ["lead", "follow", "end of deal"]:
		expect(states.has(s), "the layout was checked in state: %s (saw %s)" % [s, states.keys()])
	expect(_checked > 20, "layouts checked: %d" % _checked)
	print("layout: checked %d layouts in states %s" % [_checked, states.keys()])
	await frames(2)


## The tribute step: the player loses the first deal (always passing, leading the smallest card),
## so the second starts with them paying tribute; checked at every size before and after giving.
func test_the_tribute_step_at_every_size() -> void:
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 2, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false, rules = "competition"}), SIZES[0])
	var seen := {}
	var deadline := Time.get_ticks_msec() + 150000
	while Time.get_ticks_msec() < deadline and not seen.has("after giving"):
		await frames(1)
		if table.modal.is_open():
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		match table.duty:
			&"tribute", &"return":
				seen[String(table.duty)] = true
				await _check_all_sizes(String(table.duty))
				var options: PackedInt32Array = table.controller.tribute_options() if table.duty == &"tribute" else table.controller.return_options()
				table.hand.set_selected(PackedInt32Array([options[0]]))
				table._on_play_pressed()
			&"play":
				if table.tribute_info_shown():
					seen["after giving"] = true
					await _check_all_sizes("first turn after the tribute")
				elif table.can_pass:
					table._on_pass_pressed()
				else:
					table.hand.set_selected(PackedInt32Array([table.hand.display_order()[0]]))
					table.play_selection(-1)
	expect(seen.has("tribute") or seen.has("return"), "a tribute or return step was reached (%s)" % [seen.keys()])
	print("layout: tribute test saw %s" % [seen.keys()])


## The longest plays in every slot at once, with a banner: each stays in its box.
func test_longest_plays_stay_in_their_boxes() -> void:
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 3, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}), SIZES[1])
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var mine := {}
	for id in table.hand.cards():
		mine[id] = true
	var free: Array[int] = []
	for id in 108:
		if not mine.has(id):
			free.append(id)
	var zone: PlayZone = table.zone
	for seat in range(1, 4):
		zone.show_play(seat, PackedInt32Array(free.slice((seat - 1) * 10, seat * 10)), zone.global_position, [], table.level)
	table.banner.announce("Table cleared · North leads", 1.0)
	for s in SIZES:
		await _resize(s)
		_check("three 10-card plays at %dx%d" % [s.x, s.y])
	zone.reset()


## A match: the turn clock (bar and seconds) fits beside the buttons at every size.
func test_the_turn_clock_fits_at_every_size() -> void:
	Settings.set_value(&"history_open", false)
	Settings.set_value(&"ai_debug", false)
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 6, ai_min_think_ms = 0, turn_time_limit_s = 20,
		save_record = false}), SIZES[0])
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	await _check_all_sizes("match turn with the clock")
	expect(table.clock.visible and table.clock_label.text != "", "the clock shows its seconds")
	var e := _elements()
	expect(e.has("turn clock") and e["turn clock"].encloses(table.clock_label.get_global_rect()), "the seconds are inside the clock")


func test_the_hand_follows_live_resizes() -> void:
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}), Vector2i(1280, 720))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var hand: HandView = table.hand
	# 1280×480 → 1280×500 moves the hand without resizing it (the card height is at its minimum).
	for s in [Vector2i(1024, 720), Vector2i(1280, 720), Vector2i(1920, 1080), Vector2i(1024, 768), Vector2i(1280, 480),
			Vector2i(1280, 500), Vector2i(1280, 720)]:
		await _resize(s)
		var bad := 0
		for id in hand.cards():
			var v: CardView = table.layer.find_view(id)
			var want := hand.global_position + hand.slot_of(id).position
			if v == null or not v.visible or v.global_position.distance_to(want) > 21.0 or not v.size.is_equal_approx(hand.slot_of(id).size):
				if bad == 0:
					print("card %d at %s size %s, slot at %s size %s" % [id, v.global_position, v.size, want, hand.slot_of(id).size])
				bad += 1
		expect_eq(bad, 0, "cards away from their slots after resizing to %s" % s)
		var badge: Rect2 = table.badges[0].get_global_rect()
		for b: Control in table.action_bar.get_children():
			expect(not b.get_global_rect().intersects(hand.get_global_rect().grow(-1.0)), "%s clear of the hand at %s" % [b.name, s])
		if s.y >= 600:  # a 480-pixel-high window squeezes everything; the hand must still follow it
			expect(not badge.intersects(hand.get_global_rect()), "the You badge clear of the hand at %s" % s)


func test_a_bomb_shake_ends_where_the_frame_rests() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", false)
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}), Vector2i(1280, 720))
	var frame: Control = table.frame
	var rest := frame.position
	expect(rest != Vector2.ZERO, "the frame rests at its safe-area inset (%s)" % rest)
	table.events.shake(8.0)
	await sleep(120)
	# A resize in the middle of the shake moves the rest position with the container.
	await _resize(Vector2i(1024, 768))
	expect(await wait_until(func() -> bool: return not table.events._shake_tween.is_running(), 3.0), "the shake ends")
	await frames(2)
	expect_eq(frame.position, table.events.frame_rest_position(), "back at the inset after a shake")
	table.events.shake(14.0)
	expect(await wait_until(func() -> bool: return not table.events._shake_tween.is_running(), 3.0), "the second shake ends")
	expect_eq(frame.position, rest, "two bombs do not move the table")


func _play_first_hint() -> void:
	var hints: Array = table.controller.advice.hints(1)
	var cards := PackedInt32Array()
	if not hints.is_empty():
		cards = (hints[0].play.cards if hints[0].play != null else PackedInt32Array())
	if cards.is_empty() and table.can_pass:
		table._on_pass_pressed()
		return
	if cards.is_empty():
		cards = PackedInt32Array([table.hand.display_order()[0]])
	table.hand.set_selected(cards)
	table.play_selection(-1)


## Wide views (2340×1080, 2560×1080) use their width: with the history closed the plays are
## larger (a bigger share of the hand's card height) and the side plays start near the centre
## instead of hugging their badges across an empty middle.
func test_wide_views_bring_the_plays_in_and_make_them_larger() -> void:
	Settings.set_value(&"history_open", false)
	Settings.set_value(&"ai_debug", false)
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 0, turn_time_limit_s = 0,
		save_record = false}), SIZES[0])
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var zone: PlayZone = table.zone
	var hand: HandView = table.hand
	var share_normal := zone.card_height / hand.card_height
	expect(not table.sidebar.visible, "no history sidebar until asked for")
	for s in [Vector2i(2340, 1080), Vector2i(2560, 1080)]:
		await _resize(s)
		var share_wide := zone.card_height / hand.card_height
		expect(share_wide > share_normal + 0.03, "%dx%d: plays larger (%.2f of the hand's cards, %.2f at 1280x720)" % [s.x, s.y, share_wide, share_normal])
		var mid: float = (table.middle as Rect2).get_center().x
		var card_w := zone.card_height / CardView.ASPECT
		var west: Rect2 = zone.slot_rects[3]
		var east: Rect2 = zone.slot_rects[1]
		expect(mid - west.position.x <= card_w * TableLayout.WIDE_SIDE_CARDS + TableLayout.GAP + 1.0, "%dx%d: west's play starts near the centre" % [s.x, s.y])
		expect(east.end.x - mid <= card_w * TableLayout.WIDE_SIDE_CARDS + TableLayout.GAP + 1.0, "%dx%d: east's play too" % [s.x, s.y])
		expect(west.position.x > table.badges[3].get_rect().end.x + card_w, "%dx%d: not against west's badge" % [s.x, s.y])
		_check("wide %dx%d" % [s.x, s.y])


## Issue 38 item 12: at 1024×768 the window shows the 1280-wide design at 0.8 (the project's
## canvas_items stretch, emulated here by the viewport's 2D override). The card counter and the
## badges' lines stay readable (UiLayout.MIN_SCREEN_TEXT screen pixels), and North's five-card
## play keeps clear of the top bar.
func test_small_text_and_north_s_play_at_1024x768() -> void:
	viewport = SubViewport.new()
	viewport.size = Vector2i(1024, 768)
	viewport.size_2d_override = Vector2i(1280, 960)
	viewport.size_2d_override_stretch = true
	viewport.disable_3d = true
	add_child(viewport)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 3, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false})})
	viewport.add_child(table)
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var scale := viewport.get_final_transform().get_scale().y
	expect(absf(scale - 0.8) < 0.01, "the design is shown at 0.8 (%.2f)" % scale)
	var counter: Control = table.counter_view
	expect(counter.is_visible_in_tree(), "the card counter is shown in training")
	var labels: Array[Node] = counter.find_children("*", "Label", true, false)
	for b: SeatBadge in table.badges:
		labels.append_array(b.find_children("*", "Label", true, false))
	var small := PackedStringArray()
	for l: Label in labels:
		if not l.is_visible_in_tree() or l.text == "":
			continue
		var px := l.get_theme_font_size(&"font_size") * scale
		if px < UiLayout.MIN_SCREEN_TEXT - 0.01:
			small.append("%s '%s' %.1f px" % [l.get_parent().name + "/" + l.name, l.text, px])
	expect(small.is_empty(), "text under %d px on the screen: %s" % [UiLayout.MIN_SCREEN_TEXT, small])
	# North plays five cards.
	var mine := {}
	for id in table.hand.cards():
		mine[id] = true
	var five := PackedInt32Array()
	for id in 108:
		if not mine.has(id) and five.size() < 5:
			five.append(id)
	var zone: PlayZone = table.zone
	zone.show_play(2, five, zone.global_position, [], table.level)
	await frames(2)
	var bar_bottom: float = (table.top_bar as Control).get_global_rect().end.y
	var play := zone.group_rect(2)
	expect(play.size.y > 0.0, "North's play is shown")
	expect(play.position.y - bar_bottom >= 8.0, "North's play keeps clear of the top bar (%.1f px under it)" % [
		play.position.y - bar_bottom])
	zone.reset()
