extends Control
## The game's shell (main scene): shows one screen at a time and switches on EventBus requests,
## with a short fade during which input is blocked.
##
## Screens: &"menu", &"table" (after EventBus.match_requested), &"replays", &"replay" (after
## EventBus.replay_requested), &"settings", &"stats", &"rules", &"credits"; online: &"online" (connect, create / join /
## spectate, quick match), &"quick_search" (waiting for a quick-match table), &"leaderboard", &"profile" (a player's rating and figures), &"account" (claim, log in, transfer code, log out), &"lobby", &"online_table" (after match_requested with an online config). A screen scene may define `open(params: Dictionary)`;
## it is called before the screen enters the tree.

const SCREENS := {
	&"menu": "res://menu/main_menu.tscn",
	&"table": "res://table/table.tscn",
	&"replays": "res://replay/replay_list.tscn",
	&"replay": "res://replay/replay_player.tscn",
	&"settings": "res://settings/settings_screen.tscn",
	&"stats": "res://stats/stats_screen.tscn",
	&"rules": "res://help/rules_page.tscn",
	&"credits": "res://credits/credits_screen.tscn",
	&"online": "res://online/online_menu.tscn",
	&"lobby": "res://online/lobby.tscn",
	&"quick_search": "res://online/quick_search.tscn",
	&"leaderboard": "res://online/leaderboard.tscn",
	&"profile": "res://online/profile.tscn",
	&"account": "res://online/account.tscn",
	&"online_table": "res://online/online_table.tscn",
}

var current: Control
var current_name: StringName
## The question asked before a new match takes the saved unfinished one's place under
## Continue (null until first asked; tests press its buttons).
var unfinished_prompt: Modal

var _fade: ColorRect
var _fade_tween: Tween
## Screen requests so far: a switch still fading when a newer one starts gives way to it.
var _switches := 0
## Switches still running (fading); 0 once the screen shows (tests check none is left waiting).
var switches_running := 0


func _ready() -> void:
	var felt := preload("res://table/felt.gd").new()
	felt.name = "Felt"
	add_child(felt)
	_fade = ColorRect.new()
	_fade.name = "Fade"
	_fade.color = Color(0, 0, 0, 0)
	_fade.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_fade.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	_fade.z_index = 100
	add_child(_fade)
	EventBus.screen_requested.connect(_on_screen_requested)
	EventBus.match_requested.connect(_on_match_requested)
	EventBus.replay_requested.connect(func(record: String) -> void: show_screen(&"replay", {record = record}))
	_apply_dpi()
	_set_title.call_deferred()
	show_screen(&"menu")


func _exit_tree() -> void:
	if _fade_tween != null:
		_fade_tween.kill()


## Replaces the current screen. Immediate when animations are off.
func show_screen(screen: StringName, params := {}) -> void:
	if not SCREENS.has(screen):
		push_warning("App: unknown screen %s" % screen)
		return
	_switches += 1
	var switch := _switches
	switches_running += 1
	# A switch still fading gives way: its tween is run to its end (not killed — a coroutine
	# waiting on a killed tween never ends and keeps its scene alive), so it resumes, sees this
	# newer request and stops.
	if _fade_tween != null and _fade_tween.is_valid():
		_fade_tween.custom_step(3600.0)
	var t := Settings.anim_time(0.15)
	if current != null and t > 0.0 and is_inside_tree():
		_fade.mouse_filter = Control.MOUSE_FILTER_STOP
		_fade_tween = create_tween()
		_fade_tween.tween_property(_fade, "color:a", 1.0, t)
		await _fade_tween.finished
		if switch != _switches:
			switches_running -= 1
			return  # a newer request took over
	if current != null:
		remove_child(current)
		current.queue_free()
	var scene: PackedScene = load(SCREENS[screen])
	current = scene.instantiate()
	current_name = screen
	if current.has_method(&"open"):
		current.call(&"open", params)
	add_child(current)
	move_child(_fade, -1)
	if _fade.color.a > 0.0:
		_fade_tween = create_tween()
		_fade_tween.tween_property(_fade, "color:a", 0.0, t)
		await _fade_tween.finished
		if switch != _switches:
			switches_running -= 1
			return
	_fade.mouse_filter = Control.MOUSE_FILTER_IGNORE
	switches_running -= 1


## Opens the table for `config`. A new match that would take the place of the saved unfinished
## one under Continue asks first (a resumable match is never dropped without asking): continue
## the saved one, start the new one (the saved one stays in Replays), or stay.
func _on_match_requested(config: MatchConfig) -> void:
	var saved := RecordLibrary.continue_config()
	if saved != null and config.takes_continue_slot():
		if unfinished_prompt == null:
			unfinished_prompt = Modal.create()
			unfinished_prompt.name = "UnfinishedPrompt"
			add_child(unfinished_prompt)
		if unfinished_prompt.is_open():
			return
		move_child(unfinished_prompt, -1)
		var mode := tr("MODE_TRAINING" if saved.mode == &"training" else "MODE_MATCH")
		unfinished_prompt.open(tr("UNFINISHED_TITLE"), [tr("UNFINISHED_TEXT_FMT").format({mode = mode})],
			[[&"continue", "BTN_CONTINUE_SAVED"], [&"new", "BTN_START_NEW"], [&"cancel", "BTN_CANCEL"]], &"cancel")
		var choice: StringName = await unfinished_prompt.closed
		match choice:
			&"continue":
				config = saved
			&"new":
				RecordLibrary.forget_continue()
			_:
				return
	show_screen(&"online_table" if config.online else &"table", {config = config})


func _on_screen_requested(screen: StringName) -> void:
	if screen == &"quit":
		get_tree().quit()
		return
	show_screen(screen)


func _notification(what: int) -> void:
	if what == NOTIFICATION_WM_GO_BACK_REQUEST and current_name != &"menu":
		show_screen(&"menu")
	elif what == NOTIFICATION_TRANSLATION_CHANGED:
		_set_title.call_deferred()  # the root window has just written its title back


## The window's title is the game's name, without the " (DEBUG)" Godot appends in a build with
## its debugging features, such as the editor build tools/play runs the game on: a player's speed
## is the extension's (tools/play builds it in release mode), and the suffix only alarms them.
func _set_title() -> void:
	if DisplayServer.get_name() != "headless" and is_inside_tree():
		DisplayServer.window_set_title(String(ProjectSettings.get_setting("application/config/name")))


func _apply_dpi() -> void:
	var k := UiLayout.desktop_dpi_scale()
	if k <= 1.0 or get_window().mode != Window.MODE_WINDOWED:
		return
	var usable := DisplayServer.screen_get_usable_rect().size
	var wanted := Vector2i(Vector2(get_window().size) * k)
	get_window().size = Vector2i(mini(wanted.x, usable.x), mini(wanted.y, usable.y))
	get_window().move_to_center()
