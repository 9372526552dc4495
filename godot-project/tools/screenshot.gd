extends Node
## Shows a scene in a real window, waits for it to settle and saves what the window shows as a PNG,
## so the game can be looked at without a person (CI, Xvfb). Run through tools/screenshot:
##   tools/godot --path godot-project res://tools/screenshot.tscn -- --out /abs/file.png
##       [--scene res://ui/app.tscn] [--frames 30]
## Exit code: 0 saved, 1 could not save, 2 bad arguments or scene.


func _ready() -> void:
	get_tree().quit(await _run(OS.get_cmdline_user_args()))


func _run(args: PackedStringArray) -> int:
	var options := {"scene": "res://ui/app.tscn", "out": "", "frames": "30"}
	for i in range(0, args.size() - 1, 2):
		var key := args[i].trim_prefix("--")
		if not options.has(key):
			printerr("screenshot: unknown option %s" % args[i])
			return 2
		options[key] = args[i + 1]
	if options.out == "" or not options.frames.is_valid_int():
		printerr("screenshot: need --out FILE.png and an integer --frames")
		return 2
	var scene := load(options.scene) as PackedScene
	if scene == null:
		printerr("screenshot: cannot load scene %s" % options.scene)
		return 2
	add_child(scene.instantiate())
	for i in maxi(1, options.frames.to_int()):
		await get_tree().process_frame
	await RenderingServer.frame_post_draw  # the frame is fully drawn before we read it back
	var image := get_viewport().get_texture().get_image()
	var err := image.save_png(options.out)
	if err != OK:
		printerr("screenshot: cannot write %s: %s" % [options.out, error_string(err)])
		return 1
	print("screenshot: %dx%d %s -> %s" % [image.get_width(), image.get_height(), options.scene, options.out])
	return 0
