extends Node
## Headless test runner for tests/godot. tools/test-godot links tests/godot into the project as
## res://tests_godot (Godot only loads scripts from inside its project) and runs this scene:
##   tools/godot --headless --path godot-project res://tests_godot/framework/runner.tscn [-- FILTER]
## It finds every test_*.gd below res://tests_godot, runs each test_* method on a fresh instance
## (see gd_test_suite.gd) within that test's time limit, prints one line per test and, as its
## very last line, "N passed, N failed"; it quits with exit code 1 if anything failed or nothing
## ran. A test that makes no check fails, and so does one that runs past its time limit (the
## runner then frees it and goes on).
## FILTER (optional): only tests whose "file.gd:method" contains it.

const TEST_ROOT := "res://tests_godot"

## Routes everything Godot logs as an error or warning (push_error/push_warning, script errors,
## godot_warn!/godot_error! from Rust) to the running test. Loggers may be called from any
## thread, hence the mutex; the runner drains the buffer on the main thread after each test.
class CaptureLogger:
	extends Logger
	var _mutex := Mutex.new()
	var _lines: Array[String] = []

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			_editor_notify: bool, error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
		var kind: String = ["ERROR", "WARNING", "SCRIPT ERROR", "SHADER ERROR"][clampi(error_type, 0, 3)]
		var text := rationale if rationale else code
		_mutex.lock()
		_lines.append("%s: %s (%s:%d in %s)" % [kind, text, file.get_file(), line, function])
		_mutex.unlock()

	func _log_message(_message: String, _error: bool) -> void:
		pass

	func take() -> Array[String]:
		_mutex.lock()
		var out := _lines.duplicate()
		_lines.clear()
		_mutex.unlock()
		return out


var _logger := CaptureLogger.new()


func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	var filter := args[0] if args.size() > 0 else ""
	OS.add_logger(_logger)
	var failed := 0
	var passed := 0
	var files := _find_tests(TEST_ROOT)
	if files.is_empty():
		print("no test_*.gd files under %s" % TEST_ROOT)
	for path in files:
		var result := await _run_file(path, filter)
		passed += result[0]
		failed += result[1]
	OS.remove_logger(_logger)
	if passed + failed == 0:
		print("no tests ran (filter %s)" % var_to_str(filter))
		failed = 1
	print("%d passed, %d failed" % [passed, failed])
	get_tree().quit(1 if failed > 0 else 0)


## Returns [passed, failed] for one file.
func _run_file(path: String, filter: String) -> Array[int]:
	var script := load(path) as GDScript
	if script == null or not script.can_instantiate():
		print("FAIL %s: does not load (see the error above)" % path)
		return [0, 1]
	var probe: Object = script.new()
	var is_suite := probe is GdTestSuite
	probe.free()
	if not is_suite:
		print("FAIL %s: must extend GdTestSuite" % path)
		return [0, 1]
	var passed := 0
	var failed := 0
	for method in _test_methods(script):
		var label := "%s:%s" % [path.trim_prefix(TEST_ROOT + "/"), method]
		if filter and not Array(filter.split("|")).any(func(f: String) -> bool: return f in label):
			continue
		var problems := await _run_test(script, method)
		if problems.is_empty():
			passed += 1
			print("ok   %s" % label)
		else:
			failed += 1
			print("FAIL %s" % label)
			for problem in problems:
				print("       %s" % problem)
	return [passed, failed]


## Runs one test method on a fresh instance of `script`; returns its problems (empty = passed).
## `timeout_s` < 0: the suite's own limit for that method.
func _run_test(script: GDScript, method: StringName, timeout_s := -1.0) -> PackedStringArray:
	_logger.take()  # drop whatever was logged between tests
	var orphans_before := Performance.get_monitor(Performance.OBJECT_ORPHAN_NODE_COUNT)
	var suite: GdTestSuite = script.new()
	suite._log_source = _logger.take
	add_child(suite)
	var limit := timeout_s if timeout_s >= 0.0 else suite.timeout_for(method)
	suite.before_each()
	# The runner does not await the test itself, so it can stop waiting for it. A script error
	# inside the test aborts only the test method; the logger reports it.
	var done := [false]
	var state: Variant = suite.call(method)
	if state is Object and (state as Object).has_signal(&"completed"):
		# A coroutine: call() returned its state at the first await.
		(state as Object).connect(&"completed", func(_result: Variant = null) -> void: done[0] = true)
	else:
		done[0] = true
	var deadline := Time.get_ticks_msec() + int(limit * 1000.0)
	while not done[0] and Time.get_ticks_msec() < deadline:
		await get_tree().process_frame
	var suite_timed_out: bool = not done[0]
	if not done[0]:
		suite.fail("timed out after %.0f s" % limit)
		# Let it unwind: its waiting helpers now return at once. A test stuck on some other
		# signal stays suspended and is dropped with its instance.
		suite._cancelled = true
		var grace := Time.get_ticks_msec() + 2000
		while not done[0] and Time.get_ticks_msec() < grace:
			await get_tree().process_frame
	suite.after_each()
	var problems := suite._outcome()
	remove_child(suite)
	# A test that timed out is still suspended in an await: freeing its instance drops it.
	suite.free()
	var orphans := int(Performance.get_monitor(Performance.OBJECT_ORPHAN_NODE_COUNT) - orphans_before)
	if orphans > 0 and not suite_timed_out:
		problems.append("%d node(s) left outside the tree: free what the test creates" % orphans)
	return problems


## test_* methods in declaration order (inherited helpers excluded).
func _test_methods(script: GDScript) -> Array[StringName]:
	var out: Array[StringName] = []
	for info in script.get_script_method_list():
		var method_name := StringName(info.name)
		if String(method_name).begins_with("test_") and method_name not in out:
			out.append(method_name)
	return out


## Every test_*.gd below `dir`, sorted, depth first.
func _find_tests(dir: String) -> Array[String]:
	var out: Array[String] = []
	for file in DirAccess.get_files_at(dir):
		if file.begins_with("test_") and file.ends_with(".gd"):
			out.append(dir.path_join(file))
	out.sort()
	var subdirs := DirAccess.get_directories_at(dir)
	subdirs.sort()
	for sub in subdirs:
		out.append_array(_find_tests(dir.path_join(sub)))
	return out
