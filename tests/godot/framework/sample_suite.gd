extends GdTestSuite
## Not a test file (its name does not start with test_): tests/godot/test_runner.gd runs these
## methods through the runner to check that it fails what must fail.


func test_checks_nothing() -> void:
	await frames(1)


## Waits on a signal nobody emits.
signal _never


func test_never_ends() -> void:
	expect(true)
	await _never


func test_passes() -> void:
	expect_eq(1 + 1, 2)


func test_fails_a_check() -> void:
	expect_eq(1 + 1, 3, "arithmetic")


func test_waits_frames_forever() -> void:
	expect(true)
	await wait_until(func() -> bool: return false, 3600.0)
