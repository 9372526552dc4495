extends GdTestSuite
## Argument handling of godot-project/tools/headless_play.gd (what `tools/play --headless` runs).

const HeadlessPlay := preload("res://tools/headless_play.gd")


func test_defaults() -> void:
	expect_eq(HeadlessPlay.parse_args(PackedStringArray()),
		{"seed": 1, "level": 2, "rules": "competition", "verbose": false})


func test_seed_forms() -> void:
	expect_eq(HeadlessPlay.parse_args(PackedStringArray(["--seed", "42"])).seed, 42)
	expect_eq(HeadlessPlay.parse_args(PackedStringArray(["--seed=-7"])).seed, -7)
	expect_eq(HeadlessPlay.parse_int64("9223372036854775807"), 9223372036854775807)
	expect_eq(HeadlessPlay.parse_int64("-9223372036854775808"), -9223372036854775807 - 1)
	expect_eq(HeadlessPlay.parse_int64("+0005"), 5)


func test_level_rules_and_verbose() -> void:
	var options := HeadlessPlay.parse_args(PackedStringArray(["--level", "3", "--rules=house", "--verbose"]))
	expect_eq(options, {"seed": 1, "level": 3, "rules": "house", "verbose": true})


func test_bad_arguments_are_reported() -> void:
	for args in [["--seed"], ["--seed", "x"], ["--seed", "9223372036854775808"], ["--bogus"],
			["--level", "4"], ["--level"], ["--rules", "street"]]:
		var options := HeadlessPlay.parse_args(PackedStringArray(args))
		expect(options.has("error"), "%s is rejected" % [args])
