extends EngineTestSuite
## The typed match events (res://events/): one class per GuandanEngine signal whose fields are the
## signal's arguments (names and types, read from ClassDB); every event the engine emits and every
## event dictionary of a record becomes its class; a malformed one is refused with an error that
## names what is wrong.


func test_each_engine_signal_has_its_event_class() -> void:
	var count := 0
	for info: Dictionary in ClassDB.class_get_signal_list(&"GuandanEngine", true):
		var name := StringName(info.name)
		var script: GDScript = MatchEvents.KINDS.get(name)
		if not expect(script != null, "%s has an event class (res://events/%s.gd)" % [name, name]):
			continue
		count += 1
		expect(script.new() is MatchEvent, "%s's class is a MatchEvent" % name)
		var want: Array[Dictionary] = []
		for arg: Dictionary in info.args:
			want.append({name = String(arg.name), type = int(arg.type)})
		expect_eq(_fields(script), want, "the fields of %s are its arguments, in order, with their types" % name)
	expect(count >= 25, "every signal checked (%d)" % count)
	# No class without its signal (a renamed signal leaves no stale class behind).
	for file in DirAccess.get_files_at("res://events/"):
		if file.ends_with(".gd") and file != "match_event.gd":
			expect(ClassDB.class_has_signal(&"GuandanEngine", file.get_basename()), "%s is a GuandanEngine signal" % file)


## The signal arguments an event class holds, in its order: [{name, type}] (the test reads the
## class; the game builds events field by field in MatchEvents).
static func _fields(script: GDScript) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	for p: Dictionary in script.get_script_property_list():
		if p.usage & PROPERTY_USAGE_SCRIPT_VARIABLE and not String(p.name) in MatchEvents.OWN_KEYS and p.name != &"signal_name":
			out.append({name = String(p.name), type = int(p.type)})
	return out


func test_a_dictionary_becomes_its_typed_event() -> void:
	var e := MatchEvents.from_dict({"signal": "cards_played", "seat": 2, "play": Play.of(PackedInt32Array([3, 57]), 2),
		"restoring": true})
	expect(e is CardsPlayedEvent, "cards_played -> CardsPlayedEvent")
	var played := e as CardsPlayedEvent
	expect_eq(played.signal_name, &"cards_played")
	expect_eq(played.seat, 2)
	expect_eq(played.play.kind, "Pair")
	expect(played.restoring, "restoring kept")
	# Numbers, strings and card lists arrive in the shapes JSON and tests write them.
	var ended := MatchEvents.from_dict({"signal": &"deal_ended", "order": [2, 0, 1, 3], "level_changes": LevelChange.of(0, PackedInt32Array([2, 2]), PackedInt32Array([4, 2]))}) as DealEndedEvent
	expect_eq(ended.order, PackedInt32Array([2, 0, 1, 3]), "an array of ints is a card/seat list")
	var turn := MatchEvents.from_dict({"signal": &"turn_started", "seat": 1.0, "can_pass": false, "time_limit": 20}) as TurnStartedEvent
	expect_eq(turn.seat, 1, "a whole float is an int")
	expect_eq(turn.time_limit, 20.0, "an int is a float")
	var over := MatchEvents.from_dict({"signal": &"match_ended", "winner_team": -1, "reason": &"time_up"}) as MatchEndedEvent
	expect_eq(over.reason, "time_up")
	# From the engine's positional arguments.
	var passed := MatchEvents.from_args(&"passed", [3]) as PassedEvent
	expect(passed != null and passed.seat == 3, "from_args")


func test_a_malformed_event_is_refused_with_a_clear_error() -> void:
	expect_eq(MatchEvents.from_dict({"signal": &"cards_playd", "seat": 1}), null)
	expect_logged("refused cards_playd: no such engine signal")
	expect_eq(MatchEvents.from_dict({"seat": 1}), null)
	expect_logged("refused an event without a signal")
	expect_eq(MatchEvents.from_dict({"signal": &"passed"}), null)
	expect_logged("refused passed: argument seat is missing")
	expect_eq(MatchEvents.from_dict({"signal": &"passed", "seat": "north"}), null)
	expect_logged("refused passed: argument seat is String, not int")
	expect_eq(MatchEvents.from_dict({"signal": &"passed", "seat": 1.5}), null)
	expect_logged("refused passed: argument seat is float, not int")
	expect_eq(MatchEvents.from_dict({"signal": &"passed", "seat": 1, "sseat": 1}), null)
	expect_logged("refused passed: unknown argument sseat")
	expect_eq(MatchEvents.from_dict({"signal": &"hand_changed", "hand": [1, "2"]}), null)
	expect_logged("refused hand_changed: argument hand is Array, not PackedInt32Array")
	expect_eq(MatchEvents.from_args(&"cards_left", [1]), null)
	expect_logged("refused cards_left: 1 arguments, the signal has 2")


func test_every_event_of_a_match_and_of_its_record_is_typed() -> void:
	var engine := make_engine()
	var seen := {}
	for name: StringName in MatchController.signal_names():
		engine.connect(name, func(...args: Array) -> void:
			var e := MatchEvents.from_args(name, args)
			expect(e != null and e.signal_name == name, "the engine's %s becomes its event" % name)
			seen[name] = true)
	engine.start_match(load(COMPETITION), [1, 1, 1, 1], 13)
	expect(await wait_until(func() -> bool: return engine.get_deal_number() >= 1 or engine.is_match_over(), 60.0), "a deal is played")
	var record := engine.get_log_text()
	engine.stop_match()
	for name in [&"match_started", &"deal_started", &"turn_started", &"cards_played", &"passed", &"table_cleared",
			&"player_finished", &"deal_ended", &"ai_thinking", &"ai_decided"]:
		expect(seen.has(name), "the match emitted %s" % name)
	# A record's events (replays) are made by ReplayController from the recorded signals.
	var replay := ReplayController.new()
	add_child(replay)
	expect_eq(replay.open_record_text(record), GuandanEngine.OK)
	var kinds := {}
	var n := 0
	while true:
		var events := replay.record_events()
		expect_eq(events.size(), replay.recorder.get_events().size(), "every event of step %d is typed" % n)
		for e in events:
			kinds[e.get_script()] = true
		if not replay.step_forward():
			break
		n += 1
	expect(n > 50 and kinds.size() >= 6, "a deal's steps (%d) and kinds of events (%d)" % [n, kinds.size()])
	replay.queue_free()
