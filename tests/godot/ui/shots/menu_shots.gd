extends Node
## Screenshots of the main menu with every entry it can show (the online match to return to,
## Continue and its line, the guided first deal) and of the empty states (Statistics with no
## data, a new player's profile), in a real window, for the eye (issue 38). Run under Xvfb:
##   xvfb-run -a -s "-screen 0 2340x1080x24" tools/godot --path godot-project --resolution 2340x1080 \
##       --audio-driver Dummy res://tests_godot/ui/shots/menu_shots.tscn -- --out DIR --locale zh_CN
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const OPTIONAL: Array[String] = ["ReturnOnline", "Continue", "ContinueInfo", "GuidedDeal"]

var _out := ""
var _locale := "en"
var _saved := 0


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	for i in range(0, args.size() - 1, 2):
		match args[i]:
			"--out":
				_out = args[i + 1]
			"--locale":
				_locale = args[i + 1]
	if _out == "":
		printerr("menu_shots: --out DIR is required")
		get_tree().quit(2)
		return
	DirAccess.make_dir_recursive_absolute(_out)
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	var shots := 0
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	for entry in OPTIONAL:
		var c := menu.find_child(entry, true, false) as Control
		c.visible = true
		if c is Label:
			(c as Label).text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING")})
	await _frames(20)
	shots += await _shot("menu")
	menu.queue_free()
	var stats: Control = load("res://stats/stats_screen.tscn").instantiate()
	add_child(stats)
	await _frames(5)
	stats.show_stats({})
	await _frames(20)
	shots += await _shot("stats_empty")
	stats.queue_free()
	Online.profile_player = "p-new"
	var profile: Control = load("res://online/profile.tscn").instantiate()
	add_child(profile)
	await _frames(5)
	profile._on_profile({player_id = "p-new", nickname = "New", ratings = [],
		stats = {matches = 0, wins = 0, win_rate = 0.0, double_down_rate = 0.0, bombs_per_deal = 0.0}})
	await _frames(20)
	shots += await _shot("profile_empty")
	profile.queue_free()
	get_tree().quit(0 if _saved == shots else 1)


func _shot(name: String) -> int:
	await RenderingServer.frame_post_draw
	var win := DisplayServer.window_get_size()
	var path := _out.path_join("%s_%dx%d_%s.png" % [_locale, win.x, win.y, name])
	if get_viewport().get_texture().get_image().save_png(path) == OK:
		_saved += 1
		print(path)
	else:
		printerr("menu_shots: cannot write %s" % path)
	return 1


func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame
