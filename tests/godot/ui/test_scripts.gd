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


## No script defers a lambda: `(func(): …).call_deferred()` keeps the node's bare pointer in the
## message queue, and a node freed before the call left it pointing at whatever took the memory
## (test_lifetimes.gd shows the error it made); a deferred method of a freed node is dropped.
func test_no_script_defers_a_lambda() -> void:
	var found: Array[String] = []
	var scanned := _scan("res://", found)
	expect(scanned > 100, "scanned the game's scripts (%d)" % scanned)
	expect(found.is_empty(), "deferred lambdas: %s" % [found])


## Counts the .gd files under `dir` (not addons/) and adds "path:line" for each `).call_deferred(`.
func _scan(dir: String, found: Array[String]) -> int:
	var n := 0
	for sub in DirAccess.get_directories_at(dir):
		if not sub.begins_with(".") and sub != "addons":
			n += _scan(dir.path_join(sub), found)
	for file in DirAccess.get_files_at(dir):
		if not file.ends_with(".gd"):
			continue
		n += 1
		var path := dir.path_join(file)
		var lines := FileAccess.get_file_as_string(path).split("\n")
		var needle := ")" + ".call_deferred("  # in two parts, so this file does not find itself
		for i in lines.size():
			if lines[i].contains(needle) and not lines[i].strip_edges().begins_with("#"):
				found.append("%s:%d" % [path, i + 1])
	return n
