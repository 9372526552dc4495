extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the ends of issue 54, in a real window (Xvfb): a deal's ceremony on the table
## (the player still holding cards) and the match's end screen, then the same screen with a
## ranked match's rating counted up (the rating staged: +24 → 1210, crossing Skilled's floor, as
## an online end would show it). One run plays one match and shoots each end at 1280x720, 1024x768 and 2340x1080, the
## window resized in between (start it in a screen at least 2340x1080):
##   tools/godot --path godot-project --resolution 2340x1080 --audio-driver Dummy \
##       res://tests_godot/ui/shots/end_shots.tscn -- --out DIR --locale en
## (tools/test-ui end-shots runs it for both languages.)
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]
const SHOTS: Array[String] = ["deal_end", "match_end", "match_end_rated"]


func _ready() -> void:
	tag = "end_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	var felt := preload("res://table/felt.gd").new()  # as the app draws it under every screen
	felt.name = "Felt"
	add_child(felt)
	var ok := await _run()
	var all := true
	for px in SIZES:
		_prefix = "%s_%dx%d" % [_locale, px.x, px.y]
		for s in SHOTS:
			all = all and FileAccess.file_exists(_out.path_join("%s_%s.png" % [_prefix, s]))
	get_tree().quit(0 if ok and all else 1)


func _run() -> bool:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"match", rules = "competition", ai_levels = [1, 1, 1], seed = 6,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false})})
	add_child(table)
	await _frames(3)
	var deal_shot := false
	var deadline := Time.get_ticks_msec() + 600000
	while Time.get_ticks_msec() < deadline and not table.match_over:
		await _frames(1)
		if table.modal.is_open() and not table.match_over:
			if not deal_shot and table.hand.cards().size() > 0:
				await _settle(table)
				await _at_every_size(table, "deal_end")
				deal_shot = true
				# The rest of the match plays itself (the AI at the player's seat).
				table.controller.set_auto_play(true)
			table.modal.press(&"next")
			continue
		if not deal_shot and table.is_idle() and table.duty == &"play":
			_play_first_hint(table)
		elif not deal_shot and table.is_idle() and (table.duty == &"tribute" or table.duty == &"return"):
			var options: PackedInt32Array = table.controller.return_options() if table.duty == &"return" \
				else table.controller.tribute_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
	if not await _until(func() -> bool: return table.match_over and table.modal.is_open(), 30.0):
		return _fail("no match end")
	await _settle(table)
	await _at_every_size(table, "match_end")
	var panel: MatchEndPanel = table.events.results.end_panel
	if panel == null:
		return _fail("no end screen")
	panel.show_rating(1210, 24, true)
	await _at_every_size(table, "match_end_rated")
	return deal_shot


func _at_every_size(table: Table, shot: String) -> void:
	for px in SIZES:
		DisplayServer.window_set_size(px)
		get_viewport().size = px
		await _frames(8)
		table.modal.place(DealCeremony.card_rect(table))
		await _frames(4)
		_prefix = "%s_%dx%d" % [_locale, px.x, px.y]
		_saved.erase(shot)
		await _shot(shot)
