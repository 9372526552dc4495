extends GdTestSuite
## The Rust GDExtension loads and GuandanEngine deals correctly.

const SEATS := 4
const HAND_SIZE := 27
const DECK_SIZE := 108


func test_extension_classes_are_registered() -> void:
	for name in [&"GuandanEngine", &"MoveAdvisor", &"ReplayRecorder"]:
		expect(ClassDB.class_exists(name), "%s is registered" % name)
	expect_eq(ClassDB.get_parent_class(&"GuandanEngine"), &"Node")
	expect_eq(ClassDB.get_parent_class(&"MoveAdvisor"), &"RefCounted")
	expect_eq(ClassDB.get_parent_class(&"ReplayRecorder"), &"RefCounted")


func test_engine_instantiates_and_reports_constants() -> void:
	var engine := GuandanEngine.new()
	add_child(engine)
	expect(engine.is_inside_tree(), "engine enters the tree")
	expect_eq(GuandanEngine.SEATS, SEATS)
	expect_eq(GuandanEngine.HAND_SIZE, HAND_SIZE)
	expect_eq(GuandanEngine.DECK_SIZE, DECK_SIZE)
	expect(engine.version() != "", "version is reported")
	engine.queue_free()


func test_seeded_deal_partitions_both_decks() -> void:
	var engine := _engine()
	for seed in [0, 1, 2, 12345, -1, 9223372036854775807]:
		var hands: Array[PackedInt32Array] = engine.deal(seed)
		if not expect_eq(hands.size(), SEATS, "seed %d: hands" % seed):
			continue
		var seen := {}
		for hand in hands:
			expect_eq(hand.size(), HAND_SIZE, "seed %d: hand size" % seed)
			for id in hand:
				expect(id >= 0 and id < DECK_SIZE, "seed %d: id %d in range" % [seed, id])
				expect(not seen.has(id), "seed %d: id %d dealt once" % [seed, id])
				seen[id] = true
		expect_eq(seen.size(), DECK_SIZE, "seed %d: every card dealt" % seed)


func test_same_seed_same_deal() -> void:
	var engine := _engine()
	expect_eq(engine.deal(7), engine.deal(7))
	expect_eq(engine.deal(-3), engine.deal(-3))


func test_different_seeds_differ() -> void:
	var engine := _engine()
	expect_ne(engine.deal(7), engine.deal(8))
	expect_ne(engine.deal(0), engine.deal(1))


func test_hands_are_sorted_ids() -> void:
	for hand in _engine().deal(5):
		var sorted := hand.duplicate()
		sorted.sort()
		expect_eq(hand, sorted)


func test_deal_matches_rust_golden_cards() -> void:
	# guandan-core pins seat 0 of seed 1 starting with ids 2, 6, 7, 9, 10: the same seed must
	# give the same cards through the extension.
	expect_eq(_engine().deal(1)[0].slice(0, 5), PackedInt32Array([2, 6, 7, 9, 10]))


## An engine owned by this test (freed with it).
func _engine() -> GuandanEngine:
	var engine := GuandanEngine.new()
	add_child(engine)
	return engine


func test_error_constants_are_core_error_codes() -> void:
	# guandan-core's ErrorCode is the one table of codes: every ERR_* constant must be one of its
	# codes under the same name, and every code Godot can meet (below 40, the network protocol's
	# range) must have its constant.
	var core: Dictionary = GuandanEngine.error_codes()
	expect(core.size() >= 40, "core lists its codes (%d)" % core.size())
	var constants := {}
	for name in ClassDB.class_get_integer_constant_list(&"GuandanEngine", true):
		if name.begins_with("ERR_"):
			constants[name.trim_prefix("ERR_")] = ClassDB.class_get_integer_constant(&"GuandanEngine", name)
	for name: String in constants:
		expect_eq(core.get(name), constants[name], "ERR_%s is core's %s" % [name, name])
	for name: String in core:
		if int(core[name]) < 40:
			expect_eq(constants.get(name), core[name], "core's %s (%d) has ERR_%s" % [name, core[name], name])
	expect_eq(GuandanEngine.OK, 0)
