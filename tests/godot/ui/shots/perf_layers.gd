extends Node
## Diagnostic: what each layer of the table costs a still frame under software rendering. Opens
## the table (three L1 AI seats, seed 11), lets the first plays land and waits on the player's
## turn (the picture stays, nothing moves). Then, for several rounds, it measures 150 frames with
## everything shown and 150 with each named layer hidden (every node of that name), interleaved so
## drift hits every configuration alike. `nocourt` draws the court cards without their pictures.
## Prints, per round and configuration, the median frame and the renderer's draw calls and
## primitives, then one line per configuration: the median of the rounds' medians. A name that
## matches nothing is reported and measured as-is (builds differ in their node names).
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/perf_layers.tscn -- --hide Felt,Fan,Avatar,nocourt [--rounds 5]
## Used for issue 39: the seats' fans of backs (7 ms) and the court pictures' mipmaps (2 ms).

var _configs: Array = [""]
var _rounds := 5
var _times: PackedInt64Array = []
var _last := 0
var _on := false


func _ready() -> void:
	process_mode = Node.PROCESS_MODE_ALWAYS
	var args := OS.get_cmdline_user_args()
	for i in range(0, args.size() - 1, 2):
		match args[i]:
			"--hide":
				_configs.append_array(args[i + 1].split(",", false))
			"--rounds":
				_rounds = args[i + 1].to_int()
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", "en")
	Settings.set_value(&"anim_speed", 2.0)
	var app: Control = load("res://ui/app.tscn").instantiate()
	add_child(app)
	await Waits.frames(get_tree(), 10)
	EventBus.match_requested.emit(MatchConfig.with({mode = &"training", all_ai = false, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 11, ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	if not await Waits.until(get_tree(), func() -> bool: return app.current_name == &"table", 30.0):
		printerr("perf_layers: the table did not open")
		get_tree().quit(1)
		return
	await get_tree().create_timer(6.0).timeout
	await Waits.frames(get_tree(), 30)
	var results := {}
	for c in _configs:
		results[c] = []
	for r in _rounds:
		for c: String in _configs:
			var hidden: Array = []
			var saved_court := {}
			if c == "nocourt":
				saved_court = CardView._court_textures.duplicate()
				for k in CardView._court_textures.keys():
					CardView._court_textures[k] = null
				get_tree().call_group(CardView.GROUP, &"queue_redraw")
			elif c != "":
				for n: CanvasItem in get_tree().root.find_children(c, "CanvasItem", true, false):
					if n.visible:
						n.visible = false
						hidden.append(n)
				if hidden.is_empty():
					print("layers: %s matches no visible node" % c)
			await Waits.frames(get_tree(), 10)
			_times = []
			_last = Time.get_ticks_usec()
			_on = true
			await Waits.frames(get_tree(), 150)
			_on = false
			var s := _times.duplicate()
			s.sort()
			results[c].append(s[s.size() / 2] / 1000.0)
			print("round %d %s: %.2f ms, draw calls %d, primitives %d" % [r, c, s[s.size() / 2] / 1000.0,
				Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME),
				Performance.get_monitor(Performance.RENDER_TOTAL_PRIMITIVES_IN_FRAME)])
			for n: CanvasItem in hidden:
				n.visible = true
			if c == "nocourt":
				CardView._court_textures = saved_court
				get_tree().call_group(CardView.GROUP, &"queue_redraw")
	for c: String in _configs:
		var m: Array = results[c]
		m.sort()
		print("layers: %-12s median %.2f ms  rounds %s" % ["(all)" if c == "" else "-" + c, m[m.size() / 2], str(m)])
	get_tree().quit(0)


func _process(_d: float) -> void:
	if _on:
		var now := Time.get_ticks_usec()
		_times.append(now - _last)
		_last = now
