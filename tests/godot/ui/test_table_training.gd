extends GdTestSuite
## Training extras at the table: wild snap, every reading of an ambiguous selection as a button
## (and playing one), the heat map, the AI debug overlay; then the end-of-deal and end-of-match
## panels, the confirmation before playing, surrender, and the turn clock of a full match.

const WILDS := [13, 67]  # hearts 2: wild in the first deal (level 2)

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


## A seed whose first deal gives seat 0 the lead, a wild and four singles in a row (4 5 6 7 …);
## returns [seed, run of four card ids, wild id] or [].
func _find_seed() -> Array:
	var engine := GuandanEngine.new()
	add_child(engine)
	engine.use_turn_timer = 0
	engine.paused = true
	for seed in range(1, 400):
		var hand: PackedInt32Array = engine.deal(seed)[0]
		var wild := -1
		for w in WILDS:
			if w in hand:
				wild = w
		if wild < 0:
			continue
		var by_rank := {}
		for id in hand:
			if not Cards.is_joker(id) and id != wild:
				by_rank[Cards.rank(id)] = id
		for low in range(3, 11):
			if by_rank.has(low) and by_rank.has(low + 1) and by_rank.has(low + 2) and by_rank.has(low + 3):
				engine.start_match(null, ["human", 1, 1, 1], seed)
				if engine.get_turn() == 0:
					var run := PackedInt32Array([by_rank[low], by_rank[low + 1], by_rank[low + 2], by_rank[low + 3]])
					engine.stop_match()
					engine.queue_free()
					return [seed, run, wild]
				break
	engine.queue_free()
	return []


func _open(config: MatchConfig) -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	add_child(table)
	await frames(2)


func test_wild_snap_readings_heat_map_and_ai_debug() -> void:
	var found := await _find_seed()
	if not expect(not found.is_empty(), "a seed with a wild and a run"):
		return
	Settings.set_value(&"heat_map", true)
	Settings.set_value(&"ai_debug", true)
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = found[0], ai_min_think_ms = 0,
		turn_timer = 0, save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my lead")
	var hand: HandView = table.hand
	var heated := 0
	var tinted := 0
	for id in hand.cards():
		if hand.heat_of(id).a > 0.0:
			heated += 1
		if table.layer.find_view(id).heat.a > 0.0:
			tinted += 1
	expect(heated > 0, "the heat map marks cards")
	expect_eq(tinted, 0, "with a bar above the card, not a tint over its face (black suits stay black)")
	var legend: Control = table.training.heat_legend
	expect(legend.is_visible_in_tree(), "the heat map has a legend")
	expect_eq(legend.get_child_count(), TableStyle.current().heat_colors().size() * 2, "a swatch and a name per colour")
	# One card selected: the wild that makes it a pair lifts and glows.
	var run: PackedInt32Array = found[1]
	hand.set_selected(PackedInt32Array([run[0]]))
	var snapped := hand.snapped_ids()
	expect(snapped.size() == 1 and snapped[0] in WILDS, "wild snap on a wild (%s)" % snapped)
	if snapped.size() == 1:
		expect(table.layer.find_view(snapped[0]).glow > 0.0, "the wild glows")
	expect(table.training._why.visible, "the why panel explains the snap")
	# Four in a row and the wild: a straight at two windows (and maybe more readings).
	var sel := run.duplicate()
	sel.append(found[2])
	hand.set_selected(sel)
	var buttons: Array = table.readings_box.get_children()
	expect(buttons.size() >= 2, "one button per reading (%d)" % buttons.size())
	for b: Button in buttons:
		expect(b.text.begins_with("Play as "), "button text %s" % b.text)
	expect(hand.snapped_ids().is_empty(), "no snap once the wild is selected")
	var played: Array = []
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e is CardsPlayedEvent and (e as CardsPlayedEvent).seat == 0:
			played.append((e as CardsPlayedEvent).play))
	var last: Button = buttons[-1]
	var wanted := last.text
	last.pressed.emit()
	expect(await wait_until(func() -> bool: return not played.is_empty()), "the reading was played")
	if not played.is_empty():
		expect_eq("Play as " + PlayText.describe(played[0]), wanted, "played as the chosen reading")
	expect(await wait_until(func() -> bool: return table.training._debug.visible), "AI debug overlay shows decisions")
	expect(table.training._debug_label.text.length() > 5, "with the AI's reasons")


func test_confirm_before_playing() -> void:
	Settings.set_value(&"confirm_play", true)
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 3, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	var advice: Array = table.controller.advice.legal_plays()
	if not expect(not advice.is_empty(), "legal plays"):
		return
	var cards := PackedInt32Array(advice[0].cards)
	table.hand.set_selected(cards)
	table._on_play_pressed()
	expect(table.modal.is_open(), "asks before playing")
	expect_eq(table.hand.cards().size(), 27, "nothing played yet")
	table.modal.press(&"yes")
	expect(await wait_until(func() -> bool: return table.hand.cards().size() == 27 - cards.size()), "played after yes")
	expect(not table.hint_button.visible, "no hints in a full match")


func test_end_of_deal_and_end_of_match_panels() -> void:
	await _open(MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1, seed = 4,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	var requested: Array = []
	var on_replay := func(r: String) -> void: requested.append(r)
	EventBus.replay_requested.connect(on_replay)
	table.controller.set_paused(true)
	table.controller.stop()
	table.events.enqueue(MatchEvents.from_dict({"signal": &"deal_ended", "order": PackedInt32Array([2, 0, 1, 3]),
		"level_changes": LevelChange.of(0, PackedInt32Array([2, 2]), PackedInt32Array([5, 2]))}))
	expect(table.modal.is_open(), "end-of-deal buttons")
	# The ceremony is on the table: each seat's medal at its seat, the new levels on the plaque.
	var medals := []
	for seat in 4:
		medals.append((table.badges[seat] as SeatBadge).avatar().place)
	expect_eq(medals, [2, 3, 1, 4], "medals at the seats in finishing order (North, South, East, West)")
	var levels: Dictionary = table.plaque.shown()
	# Four AIs: the player watches, so the teams are named as a spectator reads them.
	expect_eq([levels.us, levels.them], ["South–North 5", "East–West 2"], "the plaque's tiles show the new levels")
	expect("South–North win" in _panel_text(), "the deal's title beside the buttons")
	table.modal.press(&"next")
	table.last_record = ""
	table.events.enqueue(MatchEvents.from_dict({"signal": &"match_ended", "winner_team": 0, "reason": "ace_won"}))
	expect(table.modal.is_open(), "end-of-match panel")
	expect("South–North win the match" in _panel_text(), "winner shown")
	expect(table.modal.button(&"menu") != null and table.modal.button(&"again") != null, "menu and play again")
	table.modal.press(&"menu")
	EventBus.replay_requested.disconnect(on_replay)


func _panel_text() -> String:
	var out := PackedStringArray()
	for l in table.modal.panel.find_children("*", "Label", true, false):
		out.append((l as Label).text)
	return "\n".join(out)


func test_surrender_from_the_pause_menu_ends_the_match() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle()), "table idle")
	var ended: Array = []
	table.match_panel_shown.connect(func(e: MatchEndedEvent) -> void: ended.append(e))
	table.pause_menu.open()
	expect(table.modal.button(&"surrender") != null, "surrender offered")
	table.modal.press(&"surrender")
	# It cannot be undone: the table asks first; Cancel (or Esc) keeps playing.
	expect(table.modal.is_open() and table.modal.button(&"yes") != null, "surrender asks for confirmation")
	table.modal.press(&"no")
	await frames(2)
	expect(not table.modal.is_open() and ended.is_empty(), "cancelled: the match goes on")
	table.pause_menu.open()
	table.modal.press(&"surrender")
	table.modal.press(&"yes")
	expect(await wait_until(func() -> bool: return not ended.is_empty()), "the match ends")
	if not ended.is_empty():
		expect_eq(String(ended[0].reason), "surrender")
		expect("A team surrendered." in _panel_text(), "reason shown")
	expect(table.heat_button == null, "no heat map button in a full match")


## A match that ends on the player's turn takes the turn clock away (it ran on to 0 s in red
## under the result panel, online and offline).
func test_the_turn_clock_goes_when_the_match_ends_on_the_players_turn() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0,
		turn_time_limit_s = 30, save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	expect(table.clock.visible, "the clock shows on my turn")
	var ended: Array = []
	table.match_panel_shown.connect(func(e: MatchEndedEvent) -> void: ended.append(e))
	table.pause_menu.open()
	table.modal.press(&"surrender")
	table.modal.press(&"yes")
	expect(await wait_until(func() -> bool: return not ended.is_empty()), "the match ends")
	expect(not table.clock.visible, "no turn clock under the result")
	for s in 4:
		expect(not table.badges[s].active, "no seat's badge still lit as to play: %d" % s)


## Offline the menu pauses the match and says so. Online the server's clock cannot stop (issue 38:
## "Paused" while the clock ran down, the surrender question let it fall to 5 s): the menu says
## the match goes on and shows the seconds left on the player's clock, live, and so does the short
## surrender question.
func test_the_menu_says_paused_only_offline_and_shows_the_clock_online() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0,
		turn_time_limit_s = 30, save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	table.pause_menu.open()
	var text := _panel_text()
	expect(text.begins_with("Paused"), "offline the match is paused: %s" % text)
	expect(not ("clock" in text), "no clock line offline: %s" % text)
	table.modal.press(&"resume")
	await frames(2)
	# The online table's config (its controller follows a server; the menu only reads the flag).
	table.config.online = true
	table.pause_menu.open()
	text = _panel_text()
	expect(text.begins_with("Menu — the match goes on"), "online the title says the match goes on: %s" % text)
	expect(not ("Paused" in text), "never 'Paused' online")
	expect("Online the turn clock keeps running." in text, "and says the clock runs")
	var left := func() -> int: return int(table.controller.time_left())
	var shown: String = table.pause_menu.clock_text()
	expect(shown.begins_with("Your clock: ") and shown.ends_with(" s left"), "the seconds left are in the menu: '%s'" % shown)
	var seconds := int(shown.trim_prefix("Your clock: ").trim_suffix(" s left"))
	expect(absi(seconds - left.call()) <= 1, "the clock's own seconds (%d, %d)" % [seconds, left.call()])
	table.modal.press(&"surrender")
	text = _panel_text()
	expect("If all agree, your team loses." in text, "a short surrender question online: %s" % text)
	expect(table.pause_menu.clock_text() != "", "with the clock too")
	table.modal.press(&"no")
	await frames(2)
	expect_eq(table.pause_menu.clock_text(), "", "no clock line once the panel is gone")


## Issue 52: online a team may propose to surrender once a deal; after its proposal the menu
## offered Surrender again and the server's refusal showed as "Error 59". Now the menu offers no
## second proposal in the deal (offline, where there is no limit, it still does), and the refusal
## has words.
func test_online_the_menu_offers_no_second_surrender_in_a_deal() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0,
		turn_time_limit_s = 30, save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	table.config.online = true
	table.pause_menu.open()
	expect(table.modal.button(&"surrender") != null, "Surrender is offered before any proposal")
	table.modal.press(&"resume")
	await frames(2)
	# The partner (table seat 2) proposed in this deal: the team's one proposal is used.
	var proposal := SurrenderProposedEvent.new()
	proposal.seat = 2
	await table.events.results.on_surrender(proposal)
	table.pause_menu.open()
	expect(table.modal.button(&"surrender") == null, "no second proposal offered in the deal")
	table.modal.press(&"resume")
	await frames(2)
	# An opponent's proposal does not use ours; offline there is no limit.
	table.config.online = false
	table.pause_menu.open()
	expect(table.modal.button(&"surrender") != null, "offline Surrender stays offered")
	table.modal.press(&"resume")
	await frames(2)
	expect(tr("ERR_59") != "ERR_59" and not ("59" in tr("ERR_59")), "the refusal has words: %s" % tr("ERR_59"))


func test_esc_closes_the_pause_menu_and_leaving_asks_first() -> void:
	var Pointer := preload("res://tests_godot/ui/pointer.gd")
	var pointer = Pointer.new(get_viewport())
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}))
	expect(await wait_until(func() -> bool: return table.is_idle()), "table idle")
	pointer.key(KEY_ESCAPE)
	expect(table.modal.is_open() and table.modal.button(&"resume") != null, "Esc opens the pause menu")
	pointer.key(KEY_ESCAPE)
	await frames(2)
	expect(not table.modal.is_open(), "Esc again closes it")
	table.pause_menu.open()
	table.modal.press(&"menu")
	expect(table.modal.is_open() and table.modal.button(&"yes") != null, "leaving a match asks first")
	pointer.key(KEY_ESCAPE)
	await frames(2)
	expect(not table.modal.is_open() and table.is_inside_tree(), "Esc on the question stays at the table")


func test_the_turn_clock_shows_and_passes_for_the_player() -> void:
	await _open(MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 6, ai_min_think_ms = 0, turn_time_limit_s = 1,
		save_record = false}))
	var timed_out: Array = []
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e is TurnTimedOutEvent and (e as TurnTimedOutEvent).seat == 0:
			timed_out.append(e))
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	expect(table.my_countdown.visible, "the countdown bar shows")
	await frames(3)
	expect(table.my_countdown.value < 1.0, "and runs down")
	expect(await wait_until(func() -> bool: return not timed_out.is_empty(), 5.0), "the engine acts when time runs out")


func test_keyboard_shortcuts() -> void:
	var Pointer := preload("res://tests_godot/ui/pointer.gd")
	var pointer = Pointer.new(get_viewport())
	await _open(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 9, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false}))
	# Wait for a turn where passing is allowed (someone else leads).
	var ok := await wait_until(func() -> bool:
		if table.is_idle() and table.duty == &"play" and not table.can_pass:
			table.hand.set_selected(PackedInt32Array([table.hand.display_order()[0]]))
			table.play_selection(-1)  # lead the smallest card and wait for the next turn
		return table.is_idle() and table.duty == &"play" and table.can_pass)
	if not expect(ok, "a turn that may pass"):
		return
	pointer.key(KEY_SPACE)
	expect(not table.training.current_hints().is_empty(), "Space: hint")
	var grouped: bool = table.hand.group_view
	pointer.key(KEY_S)
	expect_eq(table.hand.group_view, not grouped, "S: sort view")
	pointer.key(KEY_S)
	pointer.key(KEY_P)
	expect(await wait_until(func() -> bool: return table.duty != &"play" or Array(table.history.lines()).any(
		func(l: String) -> bool: return "You: pass" in l)), "P: pass")
