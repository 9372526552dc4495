class_name HandInput
extends RefCounted
## The input state machine of the hand: every pointer gesture on the player's cards goes through
## here, so gestures never conflict (one event, one meaning).
##
##   IDLE ──press──▶ TOUCH_DOWN ──moved > move_slop──▶ DRAGGING ──release──▶ RELEASED ─▶ IDLE
##                        │ └──held ≥ long_press_ms──▶ LONG_PRESS ──release──▶ RELEASED ─▶ IDLE
##                        └──release──▶ RELEASED (tap, or double tap) ─▶ IDLE
##
## - tap: toggles a card (`tapped`); with Ctrl it only adds (`tapped(..., additive = true)`).
## - drag: selects the run of cards the drag covers; a card counts only when the drag covers more
##   than `coverage` of its visible strip (`drag_changed` while moving, `drag_finished` at the end).
##   A drag that covers no card at all is taken as a tap on the card it started on.
## - long press (held still ≥ long_press_ms): `long_pressed` (opens grouping). Moving more than
##   move_slop first cancels it (the gesture becomes a drag).
## - double tap: two presses < double_tap_ms apart and < move_slop px apart: `double_tapped`
##   (plays); the second tap does not toggle.
## The owner feeds pointer events with `press/motion/release` (local coordinates, time in ms) and
## calls `tick(now_ms)` while a press is held; `cancel()` drops a gesture (input locked).

enum State { IDLE, TOUCH_DOWN, DRAGGING, LONG_PRESS, RELEASED }

signal tapped(index: int, additive: bool)
signal double_tapped(index: int)
signal long_pressed(index: int)
## The run a drag covers so far (indices into the strips, increasing).
signal drag_changed(indices: PackedInt32Array, start_index: int)
signal drag_finished(indices: PackedInt32Array, start_index: int)
signal state_changed(state: State)

var move_slop := 5.0
var long_press_ms := 500
var double_tap_ms := 300
## Share of a card's visible strip a drag must cover (Settings drag_coverage).
var coverage := 0.4

var state := State.IDLE:
	set(v):
		if state != v:
			state = v
			state_changed.emit(v)

## Visible strips of the cards, left to right: Vector2(x_from, x_to) in the owner's coordinates.
var strips: Array[Vector2] = []
## The band of y the cards occupy (a press outside it is ignored).
var band := Vector2(-INF, INF)

var _start := Vector2.ZERO
var _start_ms := 0
var _start_index := -1
var _additive := false
var _last_tap_ms := -100000
var _last_tap_pos := Vector2(-1000, -1000)
var _run := PackedInt32Array()


## Index of the card whose visible strip contains x, or -1.
func index_at(pos: Vector2) -> int:
	if pos.y < band.x or pos.y > band.y:
		return -1
	for i in range(strips.size() - 1, -1, -1):
		if pos.x >= strips[i].x and pos.x < strips[i].y:
			return i
	return -1


## Cards a horizontal drag from x0 to x1 covers by more than `coverage` of their strip.
func covered(x0: float, x1: float) -> PackedInt32Array:
	var lo := minf(x0, x1)
	var hi := maxf(x0, x1)
	var out := PackedInt32Array()
	for i in strips.size():
		var s := strips[i]
		var width := s.y - s.x
		if width <= 0.0:
			continue
		var overlap := minf(hi, s.y) - maxf(lo, s.x)
		if overlap / width > coverage:
			out.append(i)
	return out


func press(pos: Vector2, now_ms: int, additive := false) -> void:
	if state != State.IDLE:
		cancel()
	var index := index_at(pos)
	if index < 0:
		return
	_start = pos
	_start_ms = now_ms
	_start_index = index
	_additive = additive
	_run = PackedInt32Array()
	state = State.TOUCH_DOWN


func motion(pos: Vector2, _now_ms: int) -> void:
	match state:
		State.TOUCH_DOWN:
			if pos.distance_to(_start) > move_slop:
				state = State.DRAGGING
				_update_drag(pos)
		State.DRAGGING:
			_update_drag(pos)


func release(pos: Vector2, now_ms: int) -> void:
	if state == State.TOUCH_DOWN and pos.distance_to(_start) > move_slop:
		state = State.DRAGGING  # moved without motion events in between
	match state:
		State.TOUCH_DOWN:
			state = State.RELEASED
			var is_double := now_ms - _last_tap_ms < double_tap_ms \
					and _start.distance_to(_last_tap_pos) < move_slop
			if is_double:
				_last_tap_ms = -100000
				double_tapped.emit(_start_index)
			else:
				_last_tap_ms = _start_ms
				_last_tap_pos = _start
				tapped.emit(_start_index, _additive)
		State.DRAGGING:
			_update_drag(pos)
			state = State.RELEASED
			_last_tap_ms = -100000
			if _run.is_empty():
				tapped.emit(_start_index, _additive)
			else:
				drag_finished.emit(_run, _start_index)
		State.LONG_PRESS:
			state = State.RELEASED
			_last_tap_ms = -100000
		_:
			return
	state = State.IDLE


## Call every frame while a press is held: turns a still press into a long press.
func tick(now_ms: int) -> void:
	if state == State.TOUCH_DOWN and now_ms - _start_ms >= long_press_ms:
		state = State.LONG_PRESS
		long_pressed.emit(_start_index)


## Drops the gesture in progress (input locked, hand rebuilt, pointer left the window).
func cancel() -> void:
	if state == State.DRAGGING and not _run.is_empty():
		_run = PackedInt32Array()
		drag_changed.emit(_run, _start_index)
	state = State.IDLE


## Whether the gesture in progress started with Ctrl (adds to the selection, never removes).
func is_additive() -> bool:
	return _additive


func is_busy() -> bool:
	return state != State.IDLE


func _update_drag(pos: Vector2) -> void:
	var run := covered(_start.x, pos.x)
	if run != _run:
		_run = run
		drag_changed.emit(_run, _start_index)
