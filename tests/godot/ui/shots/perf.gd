extends Node
## Frame times of a full AI deal in the windowed game: the table (four AI seats, the table
## watching), animations on at the given speed, software rendering under Xvfb. Run by
## tools/test-ui:
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/perf.tscn -- --out DIR [--seed N] [--anim 2] [--ai-level L]
## Writes DIR/frame_times.csv (frame, usec) and prints a summary line:
##   perf: frames N, median X ms, p95 Y ms, worst Z ms, nodes N (card views C), deal S s,
##         bombs B (worst frame within 1 s of a bomb W ms)
## The measured deal must contain a bomb (its effects are the heaviest frames): a run without one
## fails (pick another --seed).
## Figures are for comparing versions on the same machine, not absolute. The seats are L2 unless
## --ai-level says otherwise: L1 (smallest play) has not changed in many versions, so two builds
## whose L2 differs (a new ranker) still play the same deal with it, card for card.
## A diagnostic for finding what a frame costs: --hide NAME[,NAME…] hides every node of the game
## with one of those names (e.g. Fan, Avatar, Felt) for the whole deal; a name that matches no
## node fails the run.

var _out := ""
var _seed := 11
var _anim := 2.0
var _level := 2
var _hide: PackedStringArray = []
var _times: PackedInt64Array = []
var _last_us := 0
var _recording := false
var _max_nodes := 0
var _bombs := 0
## Until when (usec) frames count as a bomb's, and the worst of them.
var _bomb_until_us := 0
var _bomb_worst_us := 0


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	for i in range(0, args.size() - 1, 2):
		match args[i]:
			"--out":
				_out = args[i + 1]
			"--seed":
				_seed = args[i + 1].to_int()
			"--anim":
				_anim = args[i + 1].to_float()
			"--ai-level":
				_level = args[i + 1].to_int()
			"--hide":
				_hide = args[i + 1].split(",", false)
	DirAccess.make_dir_recursive_absolute(_out)
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", "en")
	Settings.set_value(&"anim_speed", _anim)
	if "--low-perf" in args:
		Settings.set_value(&"low_perf", true)
	var app: Control = load("res://ui/app.tscn").instantiate()
	add_child(app)
	await Waits.frames(get_tree(), 10)
	var panels: Array = []
	EventBus.match_requested.emit(MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [_level, _level, _level], human_seat_level = _level,
		seed = _seed, ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	await Waits.until(get_tree(), func() -> bool: return app.current_name == &"table", 30.0)
	var table: Table = app.current
	for node_name in _hide:
		var found := get_tree().root.find_children(node_name, "CanvasItem", true, false)
		if found.is_empty():
			printerr("perf: --hide %s matches no node" % node_name)
			get_tree().quit(1)
			return
		for n: CanvasItem in found:
			n.visible = false
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: panels.append(e))
	table.event_shown.connect(_on_event_shown)
	var start := Time.get_ticks_msec()
	_last_us = Time.get_ticks_usec()
	_recording = true
	await Waits.until(get_tree(), func() -> bool: return not panels.is_empty(), 600.0)
	_recording = false
	var seconds := (Time.get_ticks_msec() - start) / 1000.0
	if panels.is_empty():
		printerr("perf: the deal did not end in time")
		get_tree().quit(1)
		return
	if _bombs == 0:
		printerr("perf: seed %d's deal has no bomb; the figures must include one (try another --seed)" % _seed)
		get_tree().quit(1)
		return
	var f := FileAccess.open(_out.path_join("frame_times.csv"), FileAccess.WRITE)
	f.store_line("frame,usec")
	for i in _times.size():
		f.store_line("%d,%d" % [i, _times[i]])
	f.close()
	var sorted := _times.duplicate()
	sorted.sort()
	var n := sorted.size()
	var summary := ("perf: frames %d, median %.1f ms, p95 %.1f ms, worst %.1f ms, nodes %d (card views %d), deal %.1f s, "
		+ "bombs %d (worst frame within 1 s of a bomb %.1f ms)") % [
		n, sorted[n / 2] / 1000.0, sorted[int(n * 0.95)] / 1000.0, sorted[n - 1] / 1000.0, _max_nodes,
		table.layer.created_count, seconds, _bombs, _bomb_worst_us / 1000.0]
	print(summary)
	var s := FileAccess.open(_out.path_join("summary.txt"), FileAccess.WRITE)
	s.store_line(summary)
	s.close()
	get_tree().quit(0)


func _process(_delta: float) -> void:
	if not _recording:
		return
	var now := Time.get_ticks_usec()
	_times.append(now - _last_us)
	if now <= _bomb_until_us:
		_bomb_worst_us = maxi(_bomb_worst_us, now - _last_us)
	_last_us = now
	_max_nodes = maxi(_max_nodes, int(Performance.get_monitor(Performance.OBJECT_NODE_COUNT)))


func _on_event_shown(event: MatchEvent) -> void:
	if event is CardsPlayedEvent and (event as CardsPlayedEvent).play.bomb:
		_bombs += 1
		_bomb_until_us = Time.get_ticks_usec() + 1000000
