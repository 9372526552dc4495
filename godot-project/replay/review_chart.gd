class_name ReviewChart
extends Control
## The player's team's outlook over the reviewed decisions: one point per decision (L3's value of
## the play made, in levels of the deal), mistakes red and inaccuracies amber; tapping a point
## asks the replay to jump to that decision (`chosen`).

signal chosen(action: int)

const GOOD := Color(0.55, 0.85, 0.65)
const INACCURACY := Color(1.0, 0.75, 0.25)
const MISTAKE := Color(1.0, 0.35, 0.3)
const DOT := 5.0

var _values := PackedFloat32Array()
var _marks := PackedInt32Array()
var _actions := PackedInt32Array()


func _init() -> void:
	custom_minimum_size = Vector2(160, 90)
	mouse_filter = Control.MOUSE_FILTER_STOP


## One point per decision: its value, mark (0 good, 1 inaccuracy, 2 mistake) and record action.
func show_points(values: PackedFloat32Array, marks: PackedInt32Array, actions: PackedInt32Array) -> void:
	_values = values
	_marks = marks
	_actions = actions
	queue_redraw()


## Where point `i` is drawn.
func point(i: int) -> Vector2:
	var n := maxi(_values.size() - 1, 1)
	return Vector2(DOT + (size.x - 2.0 * DOT) * float(i) / float(n), _y(_values[i]))


## The height of value `v` (the scale covers -3 … +3 levels at least).
func _y(v: float) -> float:
	var lo := -3.0
	var hi := 3.0
	for x in _values:
		lo = minf(lo, x)
		hi = maxf(hi, x)
	return DOT + (size.y - 2.0 * DOT) * (1.0 - (v - lo) / maxf(hi - lo, 0.01))


func points() -> int:
	return _values.size()


func _draw() -> void:
	draw_rect(Rect2(Vector2.ZERO, size), Color(0, 0, 0, 0.25))
	if _values.is_empty():
		return
	# The even line (no levels either way).
	draw_line(Vector2(0, _y(0.0)), Vector2(size.x, _y(0.0)), Color(1, 1, 1, 0.25), 1.0)
	var line := PackedVector2Array()
	for i in _values.size():
		line.append(point(i))
	if line.size() >= 2:
		draw_polyline(line, Color(0.8, 0.9, 1.0, 0.8), 2.0, true)
	for i in _values.size():
		var c := GOOD if _marks[i] == 0 else INACCURACY if _marks[i] == 1 else MISTAKE
		draw_circle(point(i), DOT if _marks[i] > 0 else DOT * 0.6, c)


func _gui_input(event: InputEvent) -> void:
	var mb := event as InputEventMouseButton
	if mb == null or not mb.pressed or mb.button_index != MOUSE_BUTTON_LEFT or _values.is_empty():
		return
	var best := 0
	for i in _values.size():
		if absf(point(i).x - mb.position.x) < absf(point(best).x - mb.position.x):
			best = i
	chosen.emit(_actions[best])
	accept_event()
