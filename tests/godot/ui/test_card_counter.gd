extends GdTestSuite
## The card counter (记牌器) follows every event the table shows (issue 53): each play takes
## exactly its cards off the counts (the deal's last play included), and under the end-of-deal
## panel the counts are the cards the other three still held (the panel's own hands). Over two
## deals, the second with a tribute; before the fix the row kept the counts of the player's last
## idle moment, so the deal's last plays were still counted as out.

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()


func after_each() -> void:
	Settings.reset_for_tests()
	if table != null and is_instance_valid(table):
		table.queue_free()
	table = null


## The counter's index of a card id: ranks 2..A are 0..12, the small joker 13, the big one 14.
static func _index(id: int) -> int:
	var v := id % 54
	return v % 13 if v < 52 else v - 39


func test_the_counter_follows_every_play_and_is_right_at_each_deal_end() -> void:
	Settings.set_value(&"anim_speed", 0.0)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 7, ai_min_think_ms = 0,
			turn_timer = 0, save_record = false})})
	add_child(table)
	await frames(2)
	expect(table.counter_view.visible, "the counter is on in training")
	table.controller.set_auto_play(true)
	var me: int = table.controller.local_seat()
	var wrong: Array[String] = []
	var plays := [0]
	var before: Array = [table.counter_view.shown()]
	table.event_handled.connect(func(e: MatchEvent) -> void:
		var shown: PackedInt32Array = table.counter_view.shown()
		if e is CardsPlayedEvent and (e as CardsPlayedEvent).seat != me and not e.restoring:
			plays[0] += 1
			var want := PackedInt32Array(before[0])
			for id: int in (e as CardsPlayedEvent).play.cards:
				want[_index(id)] -= 1
			if shown != want:
				wrong.append("after seat %d's play %s: %s, want %s" % [(e as CardsPlayedEvent).seat, (e as CardsPlayedEvent).play.text, shown, want])
		before[0] = shown)
	var ends: Array[Array] = []
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void:
		var hands: Array = DealEndHands.of(table.controller.engine, table.controller.state().deal_no - 1)
		var want := PackedInt32Array()
		want.resize(15)
		for seat in hands.size():
			if seat != me:
				for id: int in hands[seat]:
					want[_index(id)] += 1
		ends.append([table.counter_view.shown(), want]))
	var deals_wanted := 2
	var done := func() -> bool:
		if table.modal.is_open():
			if ends.size() >= deals_wanted:
				return true
			table.modal.press(&"")
		return false
	expect(await wait_until(done, 180.0), "two deals end (%d)" % ends.size())
	for i in ends.size():
		expect_eq(ends[i][0], ends[i][1], "deal %d: the counts under its panel are the others' cards left" % (i + 1))
	expect(plays[0] >= 40, "plays of the other seats checked (%d)" % plays[0])
	expect(wrong.is_empty(), "%d plays counted wrong: %s" % [wrong.size(), wrong.slice(0, 3)])
