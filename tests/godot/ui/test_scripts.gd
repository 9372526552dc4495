extends GdTestSuite
## Every script and scene of the game's UI loads (a parse error anywhere fails here, with the
## file named, before any other UI test runs into it).

const DIRS: Array[String] = ["res://autoload", "res://bridge", "res://events", "res://hand", "res://table", "res://menu", "res://replay",
	"res://settings", "res://ui"]


func test_every_ui_script_and_scene_loads() -> void:
	var count := 0
	for dir in DIRS:
		for file in DirAccess.get_files_at(dir):
			if file.ends_with(".gd") or file.ends_with(".tscn"):
				var path := dir.path_join(file)
				var res := load(path)
				expect(res != null, "%s loads" % path)
				if res is GDScript:
					expect((res as GDScript).can_instantiate(), "%s compiles" % path)
				count += 1
	expect(count > 20, "found the UI files (%d)" % count)
