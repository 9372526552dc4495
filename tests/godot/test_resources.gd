extends EngineTestSuite
## GuandanRules and AiProfile: the shipped .tres files load, match the Rust presets, edit and
## save like any resource, and change the engine's behaviour.

const PRESETS := ["competition", "huaian", "house", "no_shuffle"]
const SAVED := "user://test_resources_rules.tres"

# Card ids: deck * 54 + suit * 13 + (rank - 2), suits S H C D.
const FOUR_KINGS := [11, 24, 37, 50]
const FIVE_THREES := [1, 14, 27, 40, 55]


func after_each() -> void:
	if FileAccess.file_exists(SAVED):
		DirAccess.remove_absolute(ProjectSettings.globalize_path(SAVED))


func test_preset_files_match_the_rust_presets() -> void:
	expect_eq(Array(GuandanRules.preset_names()), PRESETS)
	for name: String in PRESETS:
		var path := "res://resources/rules/%s.tres" % name
		var rules := load(path) as GuandanRules
		if not expect(rules != null, "%s loads as GuandanRules" % path):
			continue
		expect_eq(rules.validate(), "", "%s is valid" % name)
		expect_eq(rules.to_json(), GuandanRules.preset(name).to_json(),
			"%s is up to date (regenerate with godot-project/tools/make_resources.gd)" % path)
		expect_eq(JSON.parse_string(rules.to_json()).name, name)


func test_ai_profile_files_have_their_levels() -> void:
	for entry in [["easy", 1], ["medium", 2], ["hard", 3], ["expert", 4]]:
		var profile := load("res://resources/ai/%s.tres" % entry[0]) as AiProfile
		if not expect(profile != null, "%s loads as AiProfile" % entry[0]):
			continue
		expect_eq(profile.level, entry[1])
		expect_eq(profile.validate(), "")
		expect(profile.hint_enabled, "hints on by default")
		expect(not profile.debug, "debug off by default")


## Level 4 (Expert) is the desktop level: L3's search on two threads with a larger budget; the
## engine takes it as a seat's level like 1-3 and refuses 5.
func test_the_expert_profile_is_the_desktop_level() -> void:
	var expert := load("res://resources/ai/expert.tres") as AiProfile
	var hard := load("res://resources/ai/hard.tres") as AiProfile
	var fresh := AiProfile.for_level(4)
	expect_eq([expert.level, expert.iterations, expert.threads], [fresh.level, fresh.iterations, fresh.threads],
		"expert.tres is up to date (regenerate with godot-project/tools/make_resources.gd)")
	expect_eq(expert.threads, 2)
	expect(expert.iterations > hard.iterations, "more playouts than L3: %d" % expert.iterations)
	var engine := make_engine()
	expect_eq(engine.start_match(load(COMPETITION), [null, 4, 4, 4], 3), GuandanEngine.OK, "seats at level 4")
	engine.stop_match()
	expect_ne(engine.start_match(load(COMPETITION), [null, 5, 1, 1], 3), GuandanEngine.OK, "level 5 refused")
	expect_logged("rejected")


func test_house_bomb_order_changes_what_beats_what() -> void:
	var competition := load(COMPETITION) as GuandanRules
	var house := load(HOUSE) as GuandanRules
	var kings := PackedInt32Array(FOUR_KINGS)
	var threes := PackedInt32Array(FIVE_THREES)
	expect(not competition.beats(kings, threes, 2), "competition: five cards beat four")
	expect(competition.beats(threes, kings, 2))
	expect(house.beats(kings, threes, 2), "house: the higher rank wins")
	expect(not house.beats(threes, kings, 2))
	expect(not house.beats(kings, PackedInt32Array([1, 12]), 2), "no combination")
	expect_logged("no combination")
	expect(not house.beats(kings, threes, 15), "bad level")
	expect_logged("level 15")


func test_the_engine_plays_by_the_given_rules() -> void:
	for name: String in PRESETS:
		var engine := make_engine()
		engine.start_match(load("res://resources/rules/%s.tres" % name), [1, 1, 1, 1], 3)
		expect_eq(engine.get_rules().to_json(), GuandanRules.preset(name).to_json(), name)
		expect(engine.get_log_text().contains("\"name\":\"%s\"" % name), "the record names %s" % name)
	var timed := GuandanRules.preset("competition")
	timed.turn_time_limit_s = 7
	var engine := make_engine()
	engine.use_turn_timer = true
	var limits := []
	engine.turn_started.connect(func(seat: int, _p: bool, limit: float) -> void:
		if seat == 0:
			limits.append(limit))
	engine.start_match(timed, [null, 1, 1, 1], 3)
	expect(await wait_until(func() -> bool: return not limits.is_empty(), 10.0), "seat 0 gets a turn")
	expect_eq(limits[0], 7.0, "the resource's turn limit reaches the table")


func test_rules_edit_validate_and_save_like_resources() -> void:
	var rules := GuandanRules.new()
	expect_eq(rules.to_json(), GuandanRules.preset("competition").to_json(), "new = competition")
	expect_eq(rules.apply_preset("house"), GuandanEngine.OK)
	expect_eq(rules.bomb_order, 1)
	expect_eq(rules.apply_preset("street"), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("unknown preset")
	expect(GuandanRules.preset("street") == null, "no such preset")
	expect_logged("unknown preset")
	rules.wild_count = 5
	expect(rules.validate().contains("wild_count"), rules.validate())
	expect_eq(rules.to_json(), "")
	expect_logged("wild_count")
	rules.wild_count = 1
	rules.levels_partner_last = 0
	expect_eq(ResourceSaver.save(rules, SAVED), OK)
	var back := ResourceLoader.load(SAVED, "", ResourceLoader.CACHE_MODE_IGNORE) as GuandanRules
	expect_eq(back.to_json(), rules.to_json(), "saved and loaded")
	expect_eq(back.load_json("{\"wild_count\": 0}"), GuandanEngine.OK)
	expect_eq(back.wild_count, 0)
	expect_eq(back.bomb_order, 0, "missing options take the competition value")
	expect_eq(back.load_json("{\"no_such\": 1}"), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("no_such")


func test_ai_profiles_validate() -> void:
	expect(AiProfile.for_level(5) == null, "no level 5")
	expect_logged("level 5")
	var profile := AiProfile.new()
	expect_eq(profile.level, 2)
	profile.level = 0
	expect(profile.validate().contains("level"), profile.validate())
	profile.level = 3
	profile.weight_threat = NAN
	expect(profile.validate().contains("finite"), profile.validate())
