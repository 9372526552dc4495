extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the main menu with every entry it can show (the online match to return to,
## Continue and its line, the guided first deal) and of the empty states (Statistics with no
## data, a new player's profile), in a real window, for the eye (issue 38). Run under Xvfb:
##   xvfb-run -a -s "-screen 0 2340x1080x24" tools/godot --path godot-project --resolution 2340x1080 \
##       --audio-driver Dummy res://tests_godot/ui/shots/menu_shots.tscn -- --out DIR --locale zh_CN
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["menu", "stats_empty", "profile_empty"]
const OPTIONAL: Array[String] = ["ReturnOnline", "Continue", "ContinueInfo", "GuidedDeal"]


func _ready() -> void:
	tag = "menu_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	for entry in OPTIONAL:
		var c := menu.find_child(entry, true, false) as Control
		c.visible = true
		if c is Label:
			(c as Label).text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING")})
	await _frames(20)
	await _shot("menu")
	menu.queue_free()
	var stats: Control = load("res://stats/stats_screen.tscn").instantiate()
	add_child(stats)
	stats.show_stats(null)
	await _frames(20)
	await _shot("stats_empty")
	stats.queue_free()
	Online.profile_player = "p-new"
	var profile: Control = load("res://online/profile.tscn").instantiate()
	add_child(profile)
	profile._on_profile(PlayerProfile.parse(JSON.stringify({player_id = "p-new", nickname = "New", ratings = [],
		stats = {matches = 0, wins = 0, win_rate = 0.0, double_down_rate = 0.0, bombs_per_deal = 0.0}})))
	await _frames(20)
	await _shot("profile_empty")
	profile.queue_free()
	get_tree().quit(0 if _all_saved(SHOTS) else 1)
