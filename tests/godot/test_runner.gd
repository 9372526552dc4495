extends GdTestSuite
## The test runner itself: a test that checks nothing fails, a test past its time limit fails
## (and the runner goes on, the test unwound), a failed check is reported, a good test passes.

const SAMPLE := preload("res://tests_godot/framework/sample_suite.gd")


func _runner() -> Node:
	return get_parent()


func test_a_test_without_checks_fails() -> void:
	var problems: PackedStringArray = await _runner()._run_test(SAMPLE, &"test_checks_nothing")
	expect_eq(problems.size(), 1, "one problem: %s" % problems)
	expect(problems.size() > 0 and problems[0].begins_with("checked nothing"), "reported as checking nothing")


func test_a_test_past_its_time_limit_fails() -> void:
	var start := Time.get_ticks_msec()
	var problems: PackedStringArray = await _runner()._run_test(SAMPLE, &"test_never_ends", 0.5)
	var took := Time.get_ticks_msec() - start
	expect(problems.size() > 0 and problems[0].begins_with("timed out after"), "reported as timed out: %s" % problems)
	expect(took < 30_000, "the runner stopped waiting (%d ms)" % took)


func test_failed_and_passed_tests_are_told_apart() -> void:
	var failed: PackedStringArray = await _runner()._run_test(SAMPLE, &"test_fails_a_check")
	expect(failed.size() == 1 and "arithmetic" in failed[0], "the failed check is reported: %s" % failed)
	var passed: PackedStringArray = await _runner()._run_test(SAMPLE, &"test_passes")
	expect_eq(passed, PackedStringArray(), "a good test passes")


## A cut-off test waiting in wait_until unwinds (its helpers return at once); were it left
## suspended, Godot would report leaked instances at exit, which tools/test-godot fails on.
func test_a_test_cut_off_while_waiting_on_frames_leaves_nothing_behind() -> void:
	var problems: PackedStringArray = await _runner()._run_test(SAMPLE, &"test_waits_frames_forever", 0.3)
	expect(problems.size() > 0 and problems[0].begins_with("timed out after"), "reported as timed out: %s" % problems)
	await frames(5)  # the frames its wait would have resumed on
	expect(true, "no error is logged here (the runner would report it for this test)")
