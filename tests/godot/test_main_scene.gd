extends GdTestSuite
## The main scene and the EventBus autoload.


func test_event_bus_autoload_declares_signals() -> void:
	var bus := get_node_or_null(^"/root/EventBus")
	if not expect(bus != null, "EventBus autoload exists"):
		return
	for signal_name in [&"match_started", &"hands_dealt", &"cards_played", &"seat_passed",
			&"deal_finished", &"screen_requested", &"locale_changed"]:
		expect(bus.has_signal(signal_name), "EventBus.%s" % signal_name)


func test_main_scene_shows_the_seeded_deal() -> void:
	var dealt: Array = []
	var on_dealt := func(seed: int, hands: Array[PackedInt32Array]) -> void: dealt.append([seed, hands])
	EventBus.hands_dealt.connect(on_dealt)
	var main: Control = load("res://main/main.tscn").instantiate()
	add_child(main)
	await frames(2)
	EventBus.hands_dealt.disconnect(on_dealt)
	expect_eq(main.deal_text(), "Deal for seed 1: 27 / 27 / 27 / 27 cards per seat")
	expect_eq((main.get_node(^"%Title") as Label).text, "Guandan", "title is translated")
	if expect_eq(dealt.size(), 1, "hands_dealt emitted once"):
		expect_eq(dealt[0][0], 1)
		expect_eq(dealt[0][1].size(), 4)


func test_deal_again_uses_the_next_seed() -> void:
	var main: Control = load("res://main/main.tscn").instantiate()
	add_child(main)
	(main.get_node(^"%DealAgain") as Button).pressed.emit()
	expect_eq(main.deal_text(), "Deal for seed 2: 27 / 27 / 27 / 27 cards per seat")
