extends GdTestSuite
## Every scene of the game opens on its own: each .tscn under godot-project/ is instantiated by
## itself, enters the tree and runs a few frames with nothing logged (the runner fails a test on
## any error or warning), and every translation key a scene shows is translated in both languages.

## Entry-point scenes that end the program when they run (tools); these are instantiated only.
const RUN_ENDS_PROGRAM: Array[String] = ["res://tools/screenshot.tscn", "res://tools/headless_play.tscn"]
## Folders that are not the game (the test suite is linked into the project as tests_godot).
const SKIP_DIRS: Array[String] = ["res://tests_godot", "res://.godot", "res://bin", "res://fonts", "res://audio"]


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 150.0


static func scenes(dir := "res://") -> PackedStringArray:
	var out := PackedStringArray()
	for sub in DirAccess.get_directories_at(dir):
		var path := dir.path_join(sub)
		if path not in SKIP_DIRS:
			out.append_array(scenes(path))
	for file in DirAccess.get_files_at(dir):
		if file.ends_with(".tscn"):
			out.append(dir.path_join(file))
	return out


func test_every_scene_instantiates_on_its_own() -> void:
	var paths := scenes()
	expect(paths.size() >= 9, "found the game's scenes (%d): %s" % [paths.size(), paths])
	for path in paths:
		var packed := load(path) as PackedScene
		if not expect(packed != null and packed.can_instantiate(), "%s loads" % path):
			continue
		var node := packed.instantiate()
		if not expect(node != null, "%s instantiates" % path):
			continue
		if path in RUN_ENDS_PROGRAM:
			node.free()
			continue
		add_child(node)
		await frames(10)
		if node is Control:
			var c := node as Control
			expect(c.size.x > 0.0 and c.size.y > 0.0, "%s has a size (%s)" % [path, c.size])
		node.queue_free()
		await frames(2)
		# The leaderboard and the profile fetch through Online.client as they open: with no server
		# chosen yet (this test run alone) the client refuses the call and says so; after an
		# earlier test chose one, the call goes out instead. Either is the screen's designed path.
		if path.ends_with("leaderboard.tscn") or path.ends_with("profile.tscn"):
			claim_logged("rejected with code 12")
		_collect_log()
		for line in _logged:
			fail("%s logged: %s" % [path, line])
		_logged.clear()


func test_every_key_a_scene_shows_is_translated() -> void:
	var keys := {}
	for po in ["res://i18n/en.po", "res://i18n/zh_CN.po"]:
		var set := {}
		for line in FileAccess.get_file_as_string(po).split("\n"):
			if line.begins_with("msgid \""):
				set[line.trim_prefix("msgid \"").trim_suffix("\"")] = true
		keys[po] = set
	var re := RegEx.create_from_string("(?m)^(?:text|popup/item_\\d+/text|tooltip_text) = \"((?:[A-Z][A-Z0-9]*_)+[A-Z0-9]+)\"$")
	var used := 0
	for path in scenes():
		for m in re.search_all(FileAccess.get_file_as_string(path)):
			used += 1
			var key := m.get_string(1)
			expect(keys["res://i18n/en.po"].has(key), "%s shows %s: not in en.po" % [path, key])
			expect(keys["res://i18n/zh_CN.po"].has(key), "%s shows %s: not in zh_CN.po" % [path, key])
	expect(used >= 40, "found the scenes' texts (%d)" % used)
