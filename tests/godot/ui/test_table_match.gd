extends GdTestSuite
## A whole match at the table: the human seat follows the advisor's first hint, gives tribute and
## returns cards when it must; three medium AIs. Deals follow each other through the end-of-deal
## panel until the end-of-match panel, with no error on the way.


## A whole match may take up to the loop's own two minutes.
func timeout_for(_method: StringName) -> float:
	return 150.0


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


func test_a_whole_match_from_first_deal_to_the_end_panel() -> void:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [2, 2, 2], seed = 77, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false})})
	var deals := [0]
	var ended: Array = []
	var duties := {}
	table.deal_panel_shown.connect(func(_e: DealEndedEvent) -> void: deals[0] += 1)
	table.match_panel_shown.connect(func(e: MatchEndedEvent) -> void: ended.append(e))
	add_child(table)
	await frames(2)
	var deadline := Time.get_ticks_msec() + 120000
	while ended.is_empty() and Time.get_ticks_msec() < deadline:
		await frames(1)
		if table.modal.is_open():
			table.modal.press(&"next")
		elif table.is_idle() and table.duty != &"":
			duties[table.duty] = int(duties.get(table.duty, 0)) + 1
			_act(table)
	if not expect(not ended.is_empty(), "the match ended (after %d deals)" % deals[0]):
		return
	expect(deals[0] >= 2, "several deals (%d)" % deals[0])
	expect(duties.has(&"tribute") or duties.has(&"return"), "the human gave tribute or returned a card: %s" % duties)
	expect(String(ended[0].reason) == "ace_won", "won at A")
	var winner := int(ended[0].winner_team)
	expect_eq(table.team_levels[winner], 14, "the winners reached A")
	expect(table.modal.is_open(), "end-of-match panel up")


func _act(table: Table) -> void:
	match table.duty:
		&"play":
			var hints: Array = table.controller.advice.hints(1)
			var cards := PackedInt32Array()
			if not hints.is_empty():
				cards = (hints[0].play.cards if hints[0].play != null else PackedInt32Array())
			if cards.is_empty():
				table._on_pass_pressed()
			else:
				table.hand.set_selected(cards)
				table.play_selection(-1)
		&"tribute", &"return":
			var options: PackedInt32Array = table.controller.tribute_options() if table.duty == &"tribute" \
					else table.controller.return_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
