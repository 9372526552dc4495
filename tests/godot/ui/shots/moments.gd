extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the moments the table's look is judged by (issue 27's before/after montages):
## the menu, the first deal being dealt, the player's lead, the player's follow, a big moment (staged
## over the play followed), a bomb just after it lands, the end of a
## deal, the tribute step and the replay — one AI training match, animations on, in a window.
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/moments.tscn -- --out DIR --locale en [--seed N]
## (tools/test-ui moments runs it for both languages at 1280x720, 1024x768 and 2340x1080, and
## tools/montage puts two such sets side by side.)
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["menu", "dealing", "lead", "follow", "big_moment", "bomb", "deal_end", "tribute", "replay"]
## Seconds into a big moment's effect when it is shot (its name in, the rim's light on its way).
const BIG_MOMENT_DELAY_S := 0.4
## Seconds after the table opens: the first deal in the air.
const DEALING_DELAY_S := 0.6
## Seconds after a bomb starts to be shown: its landing and effect, before the next play.
const BOMB_DELAY_S := 0.35

var _seed := 3
var _app: Control
var _bomb_pending := false


func _ready() -> void:
	tag = "moments"
	if not _read_args():
		return
	_seed = _int_arg("--seed", _seed)
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 1.0)
	_app = load("res://ui/app.tscn").instantiate()
	add_child(_app)
	var ok := await _run()
	RecordLibrary.forget_continue()
	get_tree().quit(0 if ok and _all_saved(SHOTS) else 1)


func _run() -> bool:
	await _frames(30)
	await _shot("menu")
	EventBus.match_requested.emit(MatchConfig.with({mode = &"training", rules = "competition", ai_levels = [2, 2, 2], seed = _seed,
		ai_min_think_ms = 0, turn_timer = 0, save_record = true}))
	if not await _until(func() -> bool: return _table_of(_app) != null, 10.0):
		return _fail("no table")
	var table: Table = _table_of(_app)
	table.event_shown.connect(_on_event_shown)
	await get_tree().create_timer(DEALING_DELAY_S).timeout
	await _shot("dealing")
	var deal_end_shown := false
	var deadline := Time.get_ticks_msec() + 600000
	while Time.get_ticks_msec() < deadline:
		await _frames(1)
		if _bomb_pending:
			_bomb_pending = false
			await get_tree().create_timer(BOMB_DELAY_S).timeout
			await _shot("bomb")
			continue
		if table.modal.is_open():
			if not deal_end_shown:
				await _settle(table)
				await _shot("deal_end")
				deal_end_shown = true
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		if deal_end_shown and (table.duty == &"tribute" or table.duty == &"return"
				or (table.tribute_info_shown() and table.history.lines().is_empty())):
			await _settle(table)
			await _shot("tribute")
			if _saved.has("bomb"):
				return await _replay(table)
		if table.duty == &"play":
			if not table.can_pass and not _saved.has("lead"):
				await _settle(table)
				await _shot("lead")
			elif table.can_pass and not _saved.has("follow"):
				await _settle(table)
				await _shot("follow")
				# A big moment staged mid-deal (a real one comes late or not at all in one deal): the
				# full-table effect of one without a play (as 双下 and the match won have), so no
				# play on the table is named as what it is not; without the queue's freeze.
				table.big_moment(tr("DOUBLE_DOWN_BANNER"))
				await get_tree().create_timer(BIG_MOMENT_DELAY_S).timeout
				await _shot("big_moment")
				await get_tree().create_timer(1.0).timeout
			_play_first_hint(table)
		elif table.duty == &"tribute" or table.duty == &"return":
			var options: PackedInt32Array = table.controller.tribute_options() if table.duty == &"tribute" else table.controller.return_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
	return _fail("timed out (saved %s)" % [_saved.keys()])


func _on_event_shown(event: MatchEvent) -> void:
	if _saved.has("bomb") or not event is CardsPlayedEvent:
		return
	if (event as CardsPlayedEvent).play.bomb:
		_bomb_pending = true




func _replay(table: Table) -> bool:
	table.leave()
	var record: String = table.last_record
	await _until(func() -> bool: return _app.current_name == &"menu", 5.0)
	if record == "":
		return _fail("no record")
	EventBus.replay_requested.emit(record)
	await _until(func() -> bool: return _app.current_name == &"replay", 5.0)
	var player: Control = _app.current
	await _frames(5)
	player.seek(int(player.controller.record_length() * 0.4))
	await _frames(20)
	await _shot("replay")
	ClassDB.class_call_static(&"ReplayRecorder", &"delete_record", record)
	return true
