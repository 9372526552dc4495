class_name Waits
extends RefCounted
## The waiting helpers of every test script, once: GdTestSuite's frames / wait_until / sleep use
## them, and so do the windowed UI runs (tests/godot/ui/shots/), which are not test suites.
## `stop` (optional) returns true when the wait should end early (a test cut off by its time limit).


## Awaits `count` process frames.
static func frames(tree: SceneTree, count: int, stop := Callable()) -> void:
	for i in count:
		if stop.is_valid() and stop.call():
			return
		await tree.process_frame


## Awaits frames until `cond` returns true or `seconds` pass; returns whether it came true.
static func until(tree: SceneTree, cond: Callable, seconds: float, stop := Callable()) -> bool:
	var end := Time.get_ticks_msec() + int(seconds * 1000.0)
	while not cond.call():
		if Time.get_ticks_msec() > end or (stop.is_valid() and stop.call()):
			return false
		await tree.process_frame
	return true


## Awaits `ms` of real time, frame by frame (timers count frame deltas, which can jump in a
## headless run).
static func sleep(tree: SceneTree, ms: int, stop := Callable()) -> void:
	var end := Time.get_ticks_msec() + ms
	while Time.get_ticks_msec() < end and not (stop.is_valid() and stop.call()):
		await tree.process_frame
