extends GdTestSuite
## The hand's input state machine (hand/hand_input.gd) on synthetic pointer events with explicit
## times: tap, Ctrl-tap, double tap (< 300 ms, < 5 px), long press, movement > 5 px cancelling
## the long press, and drags counted with the 40 % coverage rule.

var fsm: HandInput
var log: Array = []


func before_each() -> void:
	fsm = HandInput.new()
	# Ten cards, visible strips 30 px wide (x 100..400), the last one 100 px.
	for i in 10:
		fsm.strips.append(Vector2(100 + 30 * i, 130 + 30 * i if i < 9 else 100 + 30 * i + 100))
	fsm.band = Vector2(0, 200)
	log = []
	fsm.tapped.connect(func(i: int, additive: bool) -> void: log.append(["tap", i, additive]))
	fsm.double_tapped.connect(func(i: int) -> void: log.append(["double", i]))
	fsm.long_pressed.connect(func(i: int) -> void: log.append(["long", i]))
	fsm.drag_finished.connect(func(run: PackedInt32Array, start: int) -> void: log.append(["drag", Array(run), start]))


func test_tap_goes_idle_touch_down_released_idle() -> void:
	var states: Array = []
	fsm.state_changed.connect(func(s: HandInput.State) -> void: states.append(s))
	fsm.press(Vector2(115, 50), 1000)
	fsm.release(Vector2(116, 51), 1080)
	expect_eq(log, [["tap", 0, false]])
	expect_eq(states, [HandInput.State.TOUCH_DOWN, HandInput.State.RELEASED, HandInput.State.IDLE])


func test_ctrl_tap_is_additive() -> void:
	fsm.press(Vector2(145, 50), 0, true)
	fsm.release(Vector2(145, 50), 50)
	expect_eq(log, [["tap", 1, true]])


func test_press_outside_the_cards_is_ignored() -> void:
	fsm.press(Vector2(50, 50), 0)
	expect_eq(fsm.state, HandInput.State.IDLE)
	fsm.press(Vector2(150, 250), 0)
	expect_eq(fsm.state, HandInput.State.IDLE, "below the band")


func test_double_tap_needs_300_ms_and_5_px() -> void:
	fsm.press(Vector2(200, 50), 0)
	fsm.release(Vector2(200, 50), 40)
	fsm.press(Vector2(203, 50), 250)
	fsm.release(Vector2(203, 50), 280)
	expect_eq(log, [["tap", 3, false], ["double", 3]])
	log.clear()
	fsm.press(Vector2(200, 50), 1000)
	fsm.release(Vector2(200, 50), 1040)
	fsm.press(Vector2(200, 50), 1301)  # 301 ms after the first press: two taps
	fsm.release(Vector2(200, 50), 1340)
	expect_eq(log, [["tap", 3, false], ["tap", 3, false]])
	log.clear()
	fsm.press(Vector2(200, 50), 5000)
	fsm.release(Vector2(200, 50), 5040)
	fsm.press(Vector2(205.5, 50), 5100)  # 5.5 px away: two taps
	fsm.release(Vector2(205.5, 50), 5140)
	expect_eq(log.map(func(e: Array) -> String: return e[0]), ["tap", "tap"])


func test_long_press_after_500_ms_held_still() -> void:
	fsm.press(Vector2(260, 50), 0)
	fsm.motion(Vector2(263, 52), 100)  # < 5 px: still a touch
	fsm.tick(499)
	expect_eq(fsm.state, HandInput.State.TOUCH_DOWN)
	fsm.tick(500)
	expect_eq(fsm.state, HandInput.State.LONG_PRESS)
	fsm.release(Vector2(263, 52), 700)
	expect_eq(log, [["long", 5]])
	expect_eq(fsm.state, HandInput.State.IDLE)


func test_moving_more_than_5_px_cancels_the_long_press() -> void:
	fsm.press(Vector2(260, 50), 0)
	fsm.motion(Vector2(266, 50), 100)
	expect_eq(fsm.state, HandInput.State.DRAGGING)
	fsm.tick(900)
	expect_eq(fsm.state, HandInput.State.DRAGGING, "no long press once dragging")
	expect(log.is_empty())


func test_drag_counts_cards_covered_over_40_percent() -> void:
	# From the middle of card 1 (x 145) to 40 % into card 5's strip (250 + 12 = 262): card 1 is
	# covered 50 %, cards 2–4 fully, card 5 exactly 40 % (not more): 1..4.
	fsm.press(Vector2(145, 50), 0)
	fsm.motion(Vector2(200, 50), 20)
	fsm.release(Vector2(262, 50), 40)
	expect_eq(log, [["drag", [1, 2, 3, 4], 1]])
	log.clear()
	# A bit more than 40 % into card 5 takes it.
	fsm.press(Vector2(145, 50), 1000)
	fsm.release(Vector2(262.5, 50), 1040)
	expect_eq(log, [["drag", [1, 2, 3, 4, 5], 1]])


func test_drag_start_card_also_needs_40_percent() -> void:
	# Starting near the right edge of card 2 (x 188: 2 px = 7 % of its strip) leaves it out.
	fsm.press(Vector2(188, 50), 0)
	fsm.release(Vector2(250, 50), 30)
	expect_eq(log, [["drag", [3, 4], 2]])


func test_leftward_drag_and_a_drag_covering_nothing_is_a_tap() -> void:
	# From a third into card 6 back to two thirds into card 1: both ends under 40 %.
	fsm.press(Vector2(290, 50), 0)
	fsm.release(Vector2(150, 50), 30)
	expect_eq(log, [["drag", [2, 3, 4, 5], 6]])
	log.clear()
	fsm.press(Vector2(150, 50), 1000)  # 10 px, 6 px into the neighbour: too little
	fsm.release(Vector2(160, 50), 1030)
	expect_eq(log, [["tap", 1, false]])


func test_configurable_coverage() -> void:
	fsm.coverage = 0.1
	fsm.press(Vector2(145, 50), 0)
	fsm.release(Vector2(224, 50), 30)  # 13 % into card 4
	expect_eq(log, [["drag", [1, 2, 3, 4], 1]])


func test_cancel_drops_the_gesture() -> void:
	fsm.press(Vector2(145, 50), 0)
	fsm.motion(Vector2(200, 50), 10)
	fsm.cancel()
	fsm.release(Vector2(200, 50), 20)
	expect(log.is_empty(), "nothing after cancel")
	expect_eq(fsm.state, HandInput.State.IDLE)
