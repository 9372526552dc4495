extends GdTestSuite
## Cards move like cards: flights follow an arc and land with a small overshoot (CardFlight), and
## a deal goes round the table — backs fly to the three other seats between the player's own
## cards (DealFlight), except in low-performance mode.

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 1.0)


func after_each() -> void:
	if table != null:
		table.queue_free()
		table = null
	Settings.reset_for_tests()


func test_a_flight_arcs_and_lands_past_its_target_before_settling() -> void:
	var a := Vector2(0, 400)
	var b := Vector2(600, 400)
	expect_eq(CardFlight.point(a, b, 0.0, 0.12, 0.04), a, "starts where it is")
	expect(CardFlight.point(a, b, 1.0, 0.12, 0.04).distance_to(b) < 0.01, "ends on the target")
	expect(CardFlight.point(a, b, 0.5, 0.12, 0.04).y < 400.0 - 20.0, "rises above the straight line on the way")
	var past := 0.0
	for i in 101:
		past = maxf(past, CardFlight.point(a, b, i / 100.0, 0.12, 0.04).x - b.x)
	expect(past > 5.0 and past < 60.0, "slides a little past the target (%.1f px) and settles" % past)
	var straight := CardFlight.point(a, b, 0.5, 0.0, 0.0)
	expect(is_equal_approx(straight.y, 400.0), "a zero arc is a straight line")


func _open() -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 0, turn_timer = 0,
		save_record = false})})
	add_child(table)


func test_the_deal_goes_round_the_table() -> void:
	_open()
	var find := func() -> DealFlight: return table.find_child("DealFlight", true, false) as DealFlight
	expect(await wait_until(func() -> bool: return find.call() != null and (find.call() as DealFlight).in_flight() > 0, 10.0),
		"backs fly out at the deal")
	var flight: DealFlight = find.call()
	var flying := 0
	for id in table.hand.cards():
		var v: CardView = table.layer.find_view(id)
		if v != null and v.tween != null and v.tween.is_running():
			flying += 1
	expect(flying > 10, "the player's own cards fly in with them, even on the table's first deal (%d in the air)" % flying)
	var most := 0
	while flight.is_running():
		most = maxi(most, flight.in_flight())
		await frames(1)
	expect(most >= 3, "several backs in the air at once (%d)" % most)
	expect_eq(flight.in_flight(), 0, "all landed")
	expect(await wait_until(func() -> bool: return table.hand.cards().size() == 27, 10.0), "and the player's hand is dealt")


## A position announced again (online after a reconnect or a rejoin, Continue, the resume after
## a crash: its events are `restoring`) is drawn as it stands: no backs fly over the table in
## progress and the player's cards do not fly in again (issue 38 item 8).
func test_a_restored_deal_start_deals_nothing_in() -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 60000,
		turn_timer = 0, save_record = false})})
	add_child(table)
	var find := func() -> DealFlight: return table.find_child("DealFlight", true, false) as DealFlight
	var dealt := func() -> bool:
		return table.is_idle() and table.hand.cards().size() == 27 and find.call() != null \
				and not (find.call() as DealFlight).is_running()
	expect(await wait_until(dealt, 10.0), "the live deal was dealt in")
	var hand: PackedInt32Array = table.hand.cards()
	var handled := [0]
	table.event_handled.connect(func(_e: MatchEvent) -> void: handled[0] += 1)
	for d: Dictionary in [{"signal": "match_started", "seed": 4, "local_seat": 0},
			{"signal": "deal_started", "deal_no": 0, "level": 2, "declarer": -1},
			{"signal": "hand_changed", "hand": hand}]:
		d.restoring = true
		table.events.enqueue(MatchEvents.from_dict(d))
	var flying := func() -> int:
		var n := 0
		for id in table.hand.cards():
			var v: CardView = table.layer.find_view(id)
			if v != null and v.tween != null and v.tween.is_running():
				n += 1
		return n
	var most := [0, 0]
	while handled[0] < 3 or table.events.busy():
		most[0] = maxi(most[0], (find.call() as DealFlight).in_flight())
		most[1] = maxi(most[1], flying.call())
		await frames(1)
	expect_eq(table.hand.cards(), hand, "the hand is there")
	expect_eq(most, [0, 0], "no backs flying, none of the player's cards flying in")


func test_low_performance_mode_deals_without_the_backs() -> void:
	Settings.set_value(&"low_perf", true)
	_open()
	expect(await wait_until(func() -> bool: return table.hand.cards().size() == 27, 10.0), "the hand is dealt")
	expect(table.find_child("DealFlight", true, false) == null, "no backs flying")


## The newest play stands out: plays still on the table from earlier dim; a pass is a stamp.
func test_the_newest_play_stands_out_and_a_pass_is_stamped() -> void:
	Settings.set_value(&"anim_speed", 0.0)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1, seed = 6,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false})})
	add_child(table)
	var zone: PlayZone = table.zone
	var two_plays := func() -> bool:
		var n := 0
		for seat in 4:
			if not zone.shown(seat).is_empty():
				n += 1
		return n >= 2 and table.table_play_seat >= 0
	var stamped := false
	var checked := false
	var deadline := Time.get_ticks_msec() + 60000
	while Time.get_ticks_msec() < deadline and not (checked and stamped):
		await frames(1)
		for seat in 4:
			if zone.pass_shown(seat):
				var stamp: Label = zone.get_node("Pass%d" % seat)
				expect_eq(stamp.text, "PASS_LABEL", "the stamp says pass")
				expect(stamp.get_theme_stylebox(&"normal") is StyleBoxFlat, "drawn as a stamp")
				stamped = true
		if not checked and two_plays.call():
			var newest: int = table.table_play_seat
			for seat in 4:
				for id in zone.shown(seat):
					var v: CardView = table.layer.find_view(id)
					if seat == newest:
						expect_eq(v.modulate, Color.WHITE, "the newest play at full brightness")
					else:
						expect_eq(v.modulate, Color(zone.earlier_play_tint, 1.0), "an earlier play dims")
			checked = true
	expect(checked, "two plays were on the table at once")
	expect(stamped, "a pass was stamped")
