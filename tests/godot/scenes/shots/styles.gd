extends Node
## Screenshots of the look a designer controls, in a real window: the running table (mid-deal in
## training, a hint shown) with the default card style and with the high-contrast one, a seat
## badge's card back, the settings screen (toggles on and off; top and bottom), the menu with its language list
## open, and the pause dialog over the table. Run by tools/style-shots under Xvfb:
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/scenes/shots/styles.tscn -- --out DIR --locale en
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["table_default", "table_high_contrast", "settings", "settings_bottom", "menu_language", "dialog"]

var _out := ""
var _locale := "en"
var _prefix := ""
var _saved: Array[String] = []
var _app: Control


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	for i in range(0, args.size() - 1, 2):
		match args[i]:
			"--out":
				_out = args[i + 1]
			"--locale":
				_locale = args[i + 1]
	if _out == "":
		printerr("styles: --out DIR is required")
		get_tree().quit(2)
		return
	DirAccess.make_dir_recursive_absolute(_out)
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 2.0)
	var win := DisplayServer.window_get_size()
	_prefix = "%s_%dx%d" % [_locale, win.x, win.y]
	_app = load("res://ui/app.tscn").instantiate()
	add_child(_app)
	var ok := await _run()
	get_tree().quit(0 if ok and _saved.size() == SHOTS.size() else 1)


func _run() -> bool:
	await _frames(20)
	# The menu's language list, open (a themed popup with "System").
	var lang: OptionButton = _app.current.find_child("Language", true, false)
	lang.show_popup()
	await _frames(10)
	await _shot("menu_language")
	lang.get_popup().hide()
	for style in ["default", "high_contrast"]:
		Settings.set_value(&"high_contrast_cards", style == "high_contrast")
		if not await _table_with_hint():
			return _fail("no hint in the %s table" % style)
		await _shot("table_" + style)
		if style == "high_contrast":
			var table: Table = _app.current
			table.pause_menu.open()
			await _frames(20)
			await _shot("dialog")
	Settings.set_value(&"high_contrast_cards", false)
	Settings.set_value(&"hints", false)  # one toggle off, the others on
	EventBus.screen_requested.emit(&"settings")
	await _frames(30)
	await _shot("settings")
	# The end of the list: the High-contrast cards row.
	var scroll: ScrollContainer = _app.current.find_child("Scroll", true, false)
	scroll.scroll_vertical = int(scroll.get_v_scroll_bar().max_value)
	await _frames(10)
	await _shot("settings_bottom")
	return true


## A training table at its third turn for the player, with the advisor's hint selected.
func _table_with_hint() -> bool:
	EventBus.match_requested.emit(MatchConfig.with({mode = &"training", rules = "competition", ai_levels = [2, 2, 2], seed = 1,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	await _frames(20)
	var table: Table = _app.current
	var turns := 0
	var deadline := Time.get_ticks_msec() + 120000
	while Time.get_ticks_msec() < deadline:
		await _frames(1)
		if not table.is_idle() or table.duty != &"play":
			continue
		turns += 1
		if turns >= 3:
			table._on_hint_pressed()
			await _frames(40)
			return true
		var hints: Array = table.controller.advice.hints(1)
		var cards := PackedInt32Array()
		if not hints.is_empty():
			cards = (hints[0].play.cards if hints[0].play != null else PackedInt32Array())
		if cards.is_empty() and table.can_pass:
			table._on_pass_pressed()
		else:
			table.hand.set_selected(cards if not cards.is_empty() else PackedInt32Array([table.hand.display_order()[0]]))
			table.play_selection(-1)
	return false


func _shot(name: String) -> void:
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var path := _out.path_join("%s_%s.png" % [_prefix, name])
	if image.save_png(path) == OK:
		_saved.append(path)
		print(path)
	else:
		printerr("styles: cannot write %s" % path)


func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame


func _fail(why: String) -> bool:
	printerr("styles: " + why)
	return false
