extends GdTestSuite
## The project opens cleanly in the Godot editor: the editor, run headless on the imported project
## with the card scene open (`tools/godot --headless --editor --quit --path godot-project
## res://hand/card_view.tscn`, so the @tool card preview runs), prints no error and no warning.
## This is what a designer sees first.

## Lines of the editor's output that count as problems.
const BAD := ["ERROR", "WARNING", "Parse Error", "Failed to load", "Cannot open file"]


func timeout_for(_method: StringName) -> float:
	return 300.0


func test_the_editor_opens_the_project_without_errors_or_warnings() -> void:
	var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
	expect(FileAccess.file_exists(repo.path_join("tools/godot")), "the repository's tools/godot (%s)" % repo)
	var out := []
	# Bounded: the editor quits after its first frame; `timeout` stops it if it ever hangs.
	var command := "cd '%s' && timeout 240 tools/godot --headless --editor --quit --path godot-project res://hand/card_view.tscn 2>&1" % repo
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
