extends GdTestSuite
## The table scene plays whole deals with four AI seats (the table watches): every event is
## shown, the centre never holds more than four groups, the history fills, finishing places are
## given, the end-of-deal panel comes up — and the second deal creates no new card nodes.

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


## A table for `config`, not yet in the tree (connect to it, then add it).
func _make_table(config: MatchConfig) -> Control:
	var t: Table = load("res://table/table.tscn").instantiate()
	t.open({config = config})
	return t


func test_four_ai_seats_play_two_deals() -> void:
	table = _make_table(MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 11, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "competition"}))
	var seen := {}
	var max_groups := [0]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		seen[e.signal_name] = int(seen.get(e.signal_name, 0)) + 1
		max_groups[0] = maxi(max_groups[0], table.zone.group_count()))
	var panels: Array = []
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: panels.append(e))
	add_child(table)
	expect(await wait_until(func() -> bool: return panels.size() >= 1), "the first deal ends")
	if panels.is_empty():
		return
	expect(table.spectator, "a table of four AIs is watched")
	for name in [&"match_started", &"deal_started", &"turn_started", &"cards_played", &"passed",
			&"table_cleared", &"player_finished"]:
		expect(seen.has(name), "saw %s" % name)
	expect(max_groups[0] <= 4, "at most four groups in the centre (%d)" % max_groups[0])
	expect(table.history.lines().size() >= 1, "the history has rounds")
	expect(table.history.lines().size() <= int(Settings.get_value(&"history_rounds")), "only the last rounds kept")
	var placed := 0
	for p in table.places:
		if p > 0:
			placed += 1
	expect(placed >= 2, "finishing places given")
	expect(table.modal.is_open(), "end-of-deal panel is up")
	var nodes_after_first: int = table.layer.created_count
	expect(nodes_after_first <= 108, "at most 108 card nodes")
	var node_count := Performance.get_monitor(Performance.OBJECT_NODE_COUNT)

	table.modal.press(&"next")
	expect(await wait_until(func() -> bool: return panels.size() >= 2 or table.match_over), "the second deal ends")
	expect(seen.get(&"deal_started", 0) >= 2, "a second deal started")
	expect_eq(table.layer.created_count, nodes_after_first, "the second deal reuses the card nodes")
	var grown := Performance.get_monitor(Performance.OBJECT_NODE_COUNT) - node_count
	expect(grown <= 12, "no per-card nodes in the second deal (node count grew by %d)" % grown)


## A watcher is on neither side (issue 24, item 3): the badges and the level line name the teams
## by their seats ("South–North"), never "Our team"/"Opponents", and the bottom seat's badge
## shows its card count like the others.
func test_a_watched_table_names_teams_by_their_seats() -> void:
	table = _make_table(MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 12, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "competition"}))
	var played := [0]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		if e is CardsPlayedEvent:
			played[0] += 1)
	add_child(table)
	expect(await wait_until(func() -> bool: return played[0] >= 2), "the AIs play")
	expect(table.spectator, "a table of four AIs is watched")
	var us := tr("TEAM_US")
	var them := tr("TEAM_THEM")
	expect_ne(us, "TEAM_US", "the key is a real translation (the test means something)")
	for seat in 4:
		var sub: String = (table.badges[seat].get_node(^"%Sub") as Label).text
		expect(not sub.contains(us) and not sub.contains(them), "seat %d's badge says %s" % [seat, sub])
		# (While a seat thinks, "thinking…" stands where its team's name does.)
		if not table.badges[seat].thinking:
			expect(sub.contains(tr("TEAM_SOUTH_NORTH") if seat % 2 == 0 else tr("TEAM_EAST_WEST")),
				"seat %d's badge names its team by the seats: %s" % [seat, sub])
	# Seats by the compass: in Chinese the player's own words (下家/对家/上家, "the seat after mine"…)
	# have no meaning for a watcher, who has no chair (seen online: 南家 beside 下家/对家/上家).
	var names := func() -> Array:
		return table.badges.map(func(b: Control) -> String: return (b.get_node(^"%SeatName") as Label).text)
	var locale := TranslationServer.get_locale()
	TranslationServer.set_locale("zh_CN")
	for b: Control in table.badges:
		b.title = ""  # the setter redraws the name in the new language
	expect_eq(names.call(), ["南家", "东家", "北家", "西家"], "a watcher's seats in Chinese")
	TranslationServer.set_locale(locale)
	for b: Control in table.badges:
		b.title = ""
	expect_eq(names.call(), [tr("SEAT_SOUTH"), tr("SEAT_EAST"), tr("SEAT_NORTH"), tr("SEAT_WEST")], "and in the game's language")
	var count: Label = table.badges[0].get_node(^"%Count")
	expect(count.is_visible_in_tree() and count.text.is_valid_int() and int(count.text) > 0,
		"south's badge shows its card count (%s)" % count.text)
	var levels: String = table._level_label.text
	expect_eq(levels, tr("LEVELS_SPECTATOR_FMT").format({us = Cards.rank_label(table.team_levels[0]),
		them = Cards.rank_label(table.team_levels[1])}), "the level line names the teams by their seats")
	# The history names the bottom seat South too, never "You".
	var south_line := func() -> bool:
		return Array(table.history.lines()).any(func(l: String) -> bool: return (tr("SEAT_SOUTH") + ":") in l)
	expect(await wait_until(south_line), "south's plays are in the history: %s" % [table.history.lines()])
	for l in table.history.lines():
		expect(not ((tr("SEAT_0") + ":") in l), "a watcher's history line: %s" % l)
