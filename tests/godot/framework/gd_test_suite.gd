class_name GdTestSuite
extends Node
## Base class of every test file in tests/godot: extend it and write `func test_xxx() -> void:`
## methods (they may `await`). Each test runs on a fresh instance that is a child of the runner,
## so the scene tree is there; the instance is freed afterwards, and with it any nodes the test
## added as its children. Nodes left outside the tree (orphans) fail the test.
##
## Checks record a failure and let the test go on. Errors and warnings that Godot or the Rust
## extension log while the test runs fail it too, unless the test claims them with expect_logged().
## Script errors cannot be claimed: tools/test-godot fails the run on any "SCRIPT ERROR" line.
## A test that makes no check at all fails ("checked nothing"), and each test has its own time
## limit (DEFAULT_TIMEOUT_S; override timeout_for() for a longer one).

## Seconds one test may take before the runner fails it and goes on with the next.
const DEFAULT_TIMEOUT_S := 90.0

var _failures: PackedStringArray = []
var _checks := 0  # checks made (expect*, fail): a test that makes none has tested nothing
## Set by the runner when the test ran past its time limit: the waiting helpers return at once,
## so the test unwinds instead of staying suspended.
var _cancelled := false
var _logged: Array[String] = []  # "ERROR: ..." / "WARNING: ..." lines logged during this test
var _log_source := Callable()  # set by the runner: returns (and forgets) the lines logged so far


## Override for per-test setup; runs before each test_* method.
func before_each() -> void:
	pass


## Override for per-test cleanup; runs after each test_* method, even one that failed a check.
func after_each() -> void:
	pass


## The time limit of test `method` in seconds.
func timeout_for(_method: StringName) -> float:
	return DEFAULT_TIMEOUT_S


func fail(message: String) -> void:
	_checks += 1
	_failures.append(message + _where())


func expect(condition: bool, message := "expected true") -> bool:
	_checks += 1
	if not condition:
		fail(message)
	return condition


func expect_eq(actual: Variant, expected: Variant, message := "") -> bool:
	_checks += 1
	if _same(actual, expected):
		return true
	fail("%sexpected %s, got %s" % [_prefix(message), _show(expected), _show(actual)])
	return false


func expect_ne(actual: Variant, unexpected: Variant, message := "") -> bool:
	_checks += 1
	if not _same(actual, unexpected):
		return true
	fail("%sdid not expect %s" % [_prefix(message), _show(actual)])
	return false


## Claims the first logged error/warning containing `fragment` (it then does not fail the test);
## fails if none was logged. Use it to check that bad input is reported.
func expect_logged(fragment: String) -> bool:
	_checks += 1
	_collect_log()
	for i in _logged.size():
		if fragment in _logged[i]:
			_logged.remove_at(i)
			return true
	fail("expected a logged error/warning containing %s; logged: %s" % [_show(fragment), _logged])
	return false


## Claims the first logged error/warning containing `fragment` if there is one (no failure if
## none): for a warning whose timing depends on what earlier tests left behind (the online
## client refuses a page at once with no server, and answers later once one was named).
func claim_logged(fragment: String) -> bool:
	_collect_log()
	for i in _logged.size():
		if fragment in _logged[i]:
			_logged.remove_at(i)
			return true
	return false


## Waits `count` process frames (for tests that need the tree to run).
func frames(count := 1) -> void:
	await Waits.frames(get_tree(), count, _is_cancelled)


## Awaits frames until `cond` returns true or `seconds` pass; returns whether it came true.
func wait_until(cond: Callable, seconds := 60.0) -> bool:
	return await Waits.until(get_tree(), cond, seconds, _is_cancelled)


## Waits `ms` of real time, frame by frame (timers count frame deltas, which can jump in a
## headless run).
func sleep(ms: int) -> void:
	await Waits.sleep(get_tree(), ms, _is_cancelled)


func _is_cancelled() -> bool:
	return _cancelled


func _collect_log() -> void:
	if _log_source.is_valid():
		_logged.append_array(_log_source.call())


## Called by the runner after the test: the check failures plus every log line not claimed.
func _outcome() -> PackedStringArray:
	_collect_log()
	var out := _failures.duplicate()
	if _checks == 0:
		out.append("checked nothing: a test must make at least one check (expect*, fail)")
	for line in _logged:
		out.append("unexpected log: " + line)
	return out


static func _same(a: Variant, b: Variant) -> bool:
	# `==` between unrelated types is a script error in GDScript 2; compare numbers loosely.
	var numeric := [TYPE_INT, TYPE_FLOAT]
	if typeof(a) != typeof(b) and not (typeof(a) in numeric and typeof(b) in numeric):
		return false
	return a == b


static func _show(value: Variant) -> String:
	return var_to_str(value) if value is String or value is StringName else str(value)


static func _prefix(message: String) -> String:
	return message + ": " if message else ""


## " (at file:line)" of the test code that called a check, when Godot tracks call stacks.
func _where() -> String:
	for frame in get_stack():
		if not String(frame.source).ends_with("gd_test_suite.gd"):
			return " (at %s:%d)" % [String(frame.source).get_file(), frame.line]
	return ""
