extends GdTestSuite
## The Godot boundary: only the scripts of res://bridge/ name the extension's engine classes; the
## table handles exactly the signals GuandanEngine has (read from ClassDB, not copied); no script
## keeps its own copy of the engine's phase or error numbers; every EventBus signal is used.

const BRIDGE := "res://bridge/"
## The bridge's scripts, one job each (a new one is added here on purpose, not by accident).
const BRIDGE_SCRIPTS: Array[String] = ["res://bridge/auto_play_takeover.gd", "res://bridge/card_counter_feed.gd", "res://bridge/deal_end_hands.gd",
	"res://bridge/match_advice.gd", "res://bridge/match_controller.gd", "res://bridge/match_events.gd", "res://bridge/match_record.gd",
	"res://bridge/match_resume.gd", "res://bridge/online_records.gd", "res://bridge/record_library.gd", "res://bridge/replay_controller.gd", "res://bridge/replay_review.gd"]
## Data resources (rules, AI profiles) are not the engine: the resource generator may name them.
const ENGINE_CLASSES: Array[String] = ["GuandanEngine", "MoveAdvisor", "ReplayRecorder", "UnseenCards", "DealReviewer"]


func test_only_the_bridge_names_the_engine_classes() -> void:
	var scripts := _scripts("res://")
	expect(scripts.size() > 30, "found the game's scripts (%d)" % scripts.size())
	var class_ref := RegEx.create_from_string("\\b(%s)\\b" % "|".join(ENGINE_CLASSES))
	var class_db := RegEx.create_from_string("ClassDB\\.(instantiate|class_call_static)")
	var bridge: Array[String] = []
	for path in scripts:
		var code := _code(FileAccess.get_file_as_string(path))
		if path.begins_with(BRIDGE):
			bridge.append(path)
			expect(class_ref.search(code) != null, "%s is in bridge/ but does not use the extension" % path)
			continue
		var m := class_ref.search(code)
		expect(m == null, "%s names %s: go through res://bridge/" % [path, m.get_string(1) if m else ""])
		expect(class_db.search(code) == null, "%s creates classes through ClassDB" % path)
	bridge.sort()
	expect_eq(bridge, BRIDGE_SCRIPTS, "the bridge's scripts")


func test_the_table_handles_every_engine_signal() -> void:
	var engine_signals := {}
	for info: Dictionary in ClassDB.class_get_signal_list(&"GuandanEngine", true):
		engine_signals[StringName(info.name)] = true
	expect(engine_signals.size() >= 20, "GuandanEngine has its signals (%d)" % engine_signals.size())
	var events := TableEvents.new()
	for name: StringName in engine_signals:
		expect(events.handlers.has(name), "the table handles %s" % name)
	for name: StringName in events.handlers:
		expect(engine_signals.has(name), "the table handles %s, which GuandanEngine does not have" % name)
		var handler: Callable = events.handlers[name]
		expect(handler.is_valid() and (handler.get_object() is TableEvents or handler.get_object() is TableEventPart),
			"%s is handled by the table's own method" % name)
		# Each handler takes its signal's typed event (or any MatchEvent), so the parser checks
		# the fields it reads.
		var wanted := MatchEvents.KINDS[name].get_global_name()
		for m: Dictionary in handler.get_object().get_method_list():
			if m.name == handler.get_method():
				var takes := String(m.args[0].class_name) if m.args.size() == 1 else "?"
				expect(takes == wanted or takes == "MatchEvent", "the handler of %s takes %s, not %s" % [name, wanted, takes])
	events.free()
	# The controller listens to every signal ClassDB lists.
	expect_eq(MatchController.signal_names().size(), engine_signals.size())


func test_no_script_copies_engine_numbers() -> void:
	# Phases and error codes are GuandanEngine constants (PHASE_*, ERR_*); a copy could drift.
	var copy := RegEx.create_from_string("const\\s+(PHASE_|ERR_)\\w*")
	var comparison := RegEx.create_from_string("get_phase\\(\\)\\s*==\\s*\\d")
	for path in _scripts("res://"):
		var code := _code(FileAccess.get_file_as_string(path))
		expect(copy.search(code) == null, "%s declares its own engine constant" % path)
		expect(comparison.search(code) == null, "%s compares a phase with a number" % path)
	# Every error code the engine can return has its message for the player.
	var codes := 0
	for name in ClassDB.class_get_integer_constant_list(&"GuandanEngine", true):
		if name.begins_with("ERR_"):
			var code := ClassDB.class_get_integer_constant(&"GuandanEngine", name)
			var key := "ERR_%d" % code
			expect(TranslationServer.translate(key) != key, "%s (%d) has a message (%s)" % [name, code, key])
			codes += 1
	expect(codes >= 20, "found the engine's error codes (%d)" % codes)


func test_every_event_bus_signal_is_emitted_and_heard() -> void:
	var sources := ""
	for path in _scripts("res://"):
		sources += _code(FileAccess.get_file_as_string(path)) + "\n"
	var count := 0
	for info: Dictionary in EventBus.get_script().get_script_signal_list():
		var name := String(info.name)
		count += 1
		expect(("EventBus.%s.emit" % name) in sources, "EventBus.%s is emitted" % name)
		expect(("EventBus.%s.connect" % name) in sources, "EventBus.%s is connected" % name)
	expect(count >= 3, "EventBus declares its signals (%d)" % count)


## Every .gd file of the game (not the tests link, not the import cache).
func _scripts(dir: String) -> Array[String]:
	var out: Array[String] = []
	for file in DirAccess.get_files_at(dir):
		if file.ends_with(".gd"):
			out.append(dir.path_join(file))
	for sub in DirAccess.get_directories_at(dir):
		if sub.begins_with(".") or sub == "tests_godot" or sub == "addons":
			continue
		out.append_array(_scripts(dir.path_join(sub)))
	return out


## The code of a script without its comments (docs may mention the classes).
static func _code(text: String) -> String:
	var lines := PackedStringArray()
	for line in text.split("\n"):
		var hash := line.find("#")
		lines.append(line if hash < 0 else line.substr(0, hash))
	return "\n".join(lines)
