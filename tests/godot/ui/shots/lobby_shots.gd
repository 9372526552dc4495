extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of issue 39's items 4 and 6 in a real window, for the eye: the room lobby (as the
## host with a free seat and an AI seat; as a guest in a nearly full room), the quick-match wait
## with three players found, and a deal's end on the table. No server: the rooms are given as
## room_changed delivers them. Run under Xvfb:
##   xvfb-run -a -s "-screen 0 1280x720x24" tools/godot --path godot-project --resolution 1280x720 \
##       --audio-driver Dummy res://tests_godot/ui/shots/lobby_shots.tscn -- --out DIR --locale en
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["lobby_host", "lobby_guest", "quick_wait", "deal_end"]


func _ready() -> void:
	tag = "lobby_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"online_nickname", "Bob")
	var felt := preload("res://table/felt.gd").new()  # as the app draws it under every screen
	felt.name = "Felt"
	add_child(felt)
	await _screen("res://online/lobby.tscn", "lobby_host", func(s: Control) -> void:
		Online.seat = 1
		var room := _room(1, ["Ann", "Bob", "", ""], [0, 0, 0, 2], [false, true, false, true])
		s._refresh(OnlineRoom.parse(JSON.stringify(room)))
		# As the host sees it (the client's own room decides who hosts; there is no server here).
		preload("res://tests_godot/ui/test_lobby_and_ceremony_layout.gd")._as_host(s, room))
	await _screen("res://online/lobby.tscn", "lobby_guest", func(s: Control) -> void:
		Online.seat = 2
		s._refresh(OnlineRoom.parse(JSON.stringify(_room(0, ["小红", "Bob", "Carol", ""], [0, 0, 0, 0], [true, false, true, false])))))
	Online.seat = -1
	await _screen("res://online/quick_search.tscn", "quick_wait", func(s: Control) -> void:
		s._on_queue_status("huaian", true, 12_500, 3))
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 11, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "competition"})})
	add_child(table)
	if await _until(func() -> bool: return table.modal.is_open(), 120.0):
		await _frames(10)
		await _shot("deal_end")
	table.queue_free()
	await _frames(2)
	get_tree().quit(0 if _all_saved(SHOTS) else 1)


func _screen(path: String, shot: String, prepare: Callable) -> void:
	var s: Control = load(path).instantiate()
	add_child(s)
	await _frames(2)
	prepare.call(s)
	await _frames(10)
	await _shot(shot)
	s.queue_free()
	await _frames(2)


func _room(host: int, players: Array, ai: Array, ready: Array) -> Dictionary:
	var seats: Array = []
	for i in 4:
		seats.append({seat = i, player = players[i], ai = ai[i], ready = ready[i], connected = true, hosted = false})
	return {code = "K7QX2M", state = "waiting", host_seat = host, rules = "competition", spectator_delay = 3,
		spectators = 2, locked = false, matches = 0, seats = seats}
