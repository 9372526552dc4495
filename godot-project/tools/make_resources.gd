extends SceneTree
## Writes the shipped resources from the Rust presets, so the .tres files always match the rules
## engine: res://resources/rules/<preset>.tres (GuandanRules) and res://resources/ai/<level>.tres
## (AiProfile). tests/godot/test_resources.gd checks that the committed files are up to date.
##   tools/godot --headless --path godot-project --script res://tools/make_resources.gd

const AI_FILES := {1: "easy", 2: "medium", 3: "hard", 4: "expert"}


func _initialize() -> void:
	var failed := 0
	for preset: String in GuandanRules.preset_names():
		failed += _save(GuandanRules.preset(preset), "res://resources/rules/%s.tres" % preset)
	for level: int in AI_FILES:
		var profile: AiProfile = AiProfile.for_level(level)
		profile.resource_name = AI_FILES[level]
		failed += _save(profile, "res://resources/ai/%s.tres" % AI_FILES[level])
	quit(1 if failed else 0)


func _save(resource: Resource, path: String) -> int:
	var err := ResourceSaver.save(resource, path)
	if err != OK:
		printerr("cannot save %s: %s" % [path, error_string(err)])
		return 1
	print("wrote ", path)
	return 0
