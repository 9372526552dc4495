extends GdTestSuite
## The project opens cleanly in the Godot editor: the editor, run headless on the imported project
## with the card scene open (`tools/godot --headless --editor --quit --path godot-project
## res://hand/card_view.tscn`, so the @tool card preview runs), prints no error and no warning;
## the same with the table scene open (its @tool EditorPreview draws a sample hand and plays).
## This is what a designer sees first.

## Lines of the editor's output that count as problems.
const BAD := ["ERROR", "WARNING", "Parse Error", "Failed to load", "Cannot open file"]


func timeout_for(_method: StringName) -> float:
	return 300.0


func test_the_editor_opens_the_project_without_errors_or_warnings() -> void:
	_open_in_editor("res://hand/card_view.tscn")


func test_the_editor_opens_the_table_scene_without_errors_or_warnings() -> void:
	var text := _open_in_editor("res://table/table.tscn")
	expect("EditorPreview: 27 sample cards in the hand, 4 sample plays" in text,
		"the table's @tool preview drew its samples (output:\n%s)" % text)


## Opens `scene` in the headless editor, expects a clean run, and returns its output.
func _open_in_editor(scene: String) -> String:
	var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
	expect(FileAccess.file_exists(repo.path_join("tools/godot")), "the repository's tools/godot (%s)" % repo)
	var out := []
	# Bounded: the editor quits after its first frame; `timeout` stops it if it ever hangs.
	var command := "cd '%s' && timeout 240 tools/godot --headless --editor --quit --path godot-project %s 2>&1" % [repo, scene]
	var code := OS.execute("bash", ["-c", command], out, true)
	var text: String = "\n".join(out)
	expect_eq(code, 0, "the editor exits cleanly (output:\n%s)" % text)
	var problems := PackedStringArray()
	for line in text.split("\n"):
		for bad in BAD:
			if bad in line:
				problems.append(line.strip_edges())
				break
	expect(problems.is_empty(), "the editor printed:\n%s" % "\n".join(problems))
	expect("Godot Engine" in text, "the editor ran (output:\n%s)" % text)
	return text
