extends "res://tests_godot/ui/shots/shot_script.gd"
## A scripted tour of the real game in a window, saving screenshots: the menu, the table
## mid-deal in training mode with a hint shown, the hand's grouping view (with a manual group),
## the end-of-deal panel and the tribute step, the auto-play indicator; then the menu offering
## Continue (the match left), the settings screen, the statistics, the replay list and the replay
## player (on this match, then deleted). The card counter shows on every training table shot.
## Run by tools/test-ui under Xvfb (software renderer) for each language and resolution:
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/tour.tscn -- --out DIR --locale en [--seed N]
## Writes DIR/<locale>_<W>x<H>_<shot>.png and prints one line per file. The human seat follows
## the advisor's first hint, so the match is the same every run. Exit code 0 = every shot saved.

const SHOTS: Array[String] = ["menu", "table_hint", "hand_groups", "deal_end", "tribute", "auto_play", "continue",
	"settings", "stats", "replays", "replay"]

var _seed := 1
var _app: Control
var _anim := 2.0  # animation speed (--anim)
var _probe := false  # --probe 1: no screenshots, print the deal-2 tribute (to pick a seed)


func _ready() -> void:
	tag = "tour"
	if not _read_args():
		return
	_seed = _int_arg("--seed", _seed)
	_probe = String(_args.get("--probe", "0")) == "1"
	if _args.has("--anim"):
		_anim = String(_args["--anim"]).to_float()
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", _anim)
	var size := get_viewport().get_visible_rect().size
	print("tour: %s, viewport %s" % [_prefix, size])
	_app = load("res://ui/app.tscn").instantiate()
	add_child(_app)
	var ok := await _run()
	get_tree().quit(0 if ok and _all_saved(SHOTS) else 1)


func _run() -> bool:
	await _frames(30)
	await _shot("menu")
	EventBus.match_requested.emit(MatchConfig.with({mode = &"training", rules = "competition", ai_levels = [2, 2, 2], seed = _seed,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	if not await _until(func() -> bool: return _table_of(_app) != null, 10.0):
		return _fail("no table")
	var table: Table = _table_of(_app)
	var my_turns := 0
	var hint_shown := false
	var deal_end_shown := false
	# Generous (8 min; tools/test-ui stops a run at 15): plays stay up for their minimum reading time, and CI machines may be loaded.
	var deadline := Time.get_ticks_msec() + 480000
	while Time.get_ticks_msec() < deadline:
		await _frames(1)
		if table.modal.is_open():
			if not deal_end_shown:
				await _settle(table)
				await _shot("deal_end")
				deal_end_shown = true
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		if _probe and table.tribute_info_shown():
			print("probe: seed %d deal 2 tribute: %s" % [_seed, table.tribute_panel.lines()])
			return true
		if deal_end_shown and (table.duty == &"tribute" or table.duty == &"return"
				or (table.tribute_info_shown() and table.history.lines().is_empty())):
			await _settle(table)
			await _shot("tribute")
			return await _other_screens(table)
		if table.duty == &"play":
			my_turns += 1
			if my_turns >= 3 and not hint_shown and _first_hint_plays(table):
				table._on_hint_pressed()
				await _settle(table)
				await _shot("table_hint")
				hint_shown = true
				# The grouping view, with a manual group of the first two singles' neighbours.
				table.hand.clear_selection()
				table.hand.group_view = true
				var order: PackedInt32Array = table.hand.display_order()
				table.hand.set_selected(order.slice(order.size() - 3, order.size() - 1))
				table.hand.group_selection()
				table.hand.set_heat({})
				await _settle(table)
				await _shot("hand_groups")
				table.hand.ungroup()
				table.hand.group_view = false
				await _frames(2)
			_play_first_hint(table)
		elif table.duty == &"tribute" or table.duty == &"return":
			var options: PackedInt32Array = table.controller.tribute_options() if table.duty == &"tribute" else table.controller.return_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
	return _fail("timed out (turns %d, hint %s, deal end %s)" % [my_turns, hint_shown, deal_end_shown])




func _other_screens(table: Table) -> bool:
	if _probe:
		return true
	table.controller.config.save_record = true
	# Auto-play: the AI plays the player's seat (blinking border, "AI Auto-Play").
	table.controller.set_auto_play(true)
	await _until(func() -> bool: return table.auto_play and table.is_idle(), 10.0)
	table.controller.set_paused(true)
	await _settle(table)
	await _shot("auto_play")
	table.controller.set_auto_play(false)
	await _until(func() -> bool: return not table.auto_play, 5.0)
	# Leaving saves the match; the menu offers to continue it.
	table.leave()
	var record: String = table.last_record
	await _until(func() -> bool: return _app.current_name == &"menu", 5.0)
	await _frames(20)
	await _shot("continue")
	EventBus.screen_requested.emit(&"settings")
	await _until(func() -> bool: return _app.current_name == &"settings", 5.0)
	await _frames(20)
	await _shot("settings")
	EventBus.screen_requested.emit(&"stats")
	await _until(func() -> bool: return _app.current_name == &"stats", 5.0)
	await _frames(20)
	await _shot("stats")
	EventBus.screen_requested.emit(&"replays")
	await _until(func() -> bool: return _app.current_name == &"replays", 5.0)
	await _frames(20)
	await _shot("replays")
	EventBus.replay_requested.emit(record)
	await _until(func() -> bool: return _app.current_name == &"replay", 5.0)
	var player: Control = _app.current
	await _frames(5)
	player.seek(int(player.controller.record_length() * 0.4))
	await _frames(20)
	await _shot("replay")
	ClassDB.class_call_static(&"ReplayRecorder", &"delete_record", record)
	RecordLibrary.forget_continue()
	return record != ""


func _first_hint_plays(table: Table) -> bool:
	var hints: Array = table.controller.advice.hints(1)
	return not hints.is_empty() and hints[0].play != null


func _shot(name: String) -> void:
	if _probe:
		_saved[name] = ""
		return
	await super(name)
