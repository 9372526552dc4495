extends GdTestSuite
## MatchConfig, the typed configuration a match starts from.


func test_fields_defaults_and_again() -> void:
	var c := MatchConfig.with({mode = &"match", rules = "house", ai_levels = [1, 3, 2], seed = -5, turn_time_limit_s = 7})
	expect_eq(c.mode, &"match")
	expect_eq(c.rules, "house")
	expect_eq(c.ai_levels, [1, 3, 2] as Array[int])
	expect(c.has_seed, "a given seed is kept")
	expect_eq(c.seed, -5)
	expect_eq(c.turn_time_limit_s, 7)
	expect(c.uses_turn_timer(), "matches run the turn clock by default")
	expect(not MatchConfig.with({mode = &"training"}).uses_turn_timer(), "training has no turn clock by default")
	expect(not MatchConfig.with({mode = &"match", turn_timer = 0}).uses_turn_timer(), "turned off")
	expect(MatchConfig.with({mode = &"training", turn_timer = 1}).uses_turn_timer(), "turned on")
	expect(not MatchConfig.new().has_seed, "no seed: a random one is drawn at the start")
	var again := c.again()
	expect(not again.has_seed and again.rules == "house" and again.ai_levels == c.ai_levels,
		"play again: the same match with a fresh seed")
	expect(c.has_seed, "the original is unchanged")


func test_an_unknown_field_is_an_error() -> void:
	var c := MatchConfig.with({mode = &"match", ai_level = 3})
	expect_logged("unknown field ai_level")
	expect_eq(c.mode, &"match", "the known fields are still set")


func test_the_controller_starts_what_the_config_says() -> void:
	var controller := MatchController.new()
	add_child(controller)
	var code := controller.start(MatchConfig.with({all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 12, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "huaian"}))
	expect_eq(code, 0)
	expect_eq(controller.match_seed(), 12)
	expect_eq(controller.local_seat(), -1, "four AIs: the table only watches")
	expect_eq(controller.engine.get_rules().name, "huaian")
	expect(not controller.engine.use_turn_timer, "no turn clock")
	var random := MatchController.new()
	add_child(random)
	expect_eq(random.start(MatchConfig.with({ai_levels = [1, 1, 1], save_record = false})), 0)
	expect(random.config.has_seed, "a random seed was drawn and is kept in the controller's config")
	expect_eq(random.match_seed(), random.config.seed)
	expect_eq(random.local_seat(), 0, "seat 0 is the human")
