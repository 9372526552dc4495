class_name DealFlight
extends Control
## The deal going round the table: card backs fly from the middle to the other seats, one every
## `gap` seconds in turn with the player's own cards (which the hand flies in itself). Drawn as
## plain rounded backs in _draw — no card nodes for hidden hands (CardLayer's rule) and one
## canvas item for the whole deal. Low-performance mode never starts it.

## Seconds one back takes to reach its seat.
const FLIGHT_S := 0.28

var _from_fn: Callable
var _target_fns: Array[Callable] = []
var _from := Vector2.ZERO
var _targets: Array[Vector2] = []
var _starts: PackedFloat32Array = []  # per flight: start time (s after begin)
var _seats: PackedInt32Array = []  # per flight: index into _targets
var _card := Vector2(40, 56)
var _t := 0.0
var _arc := 0.1


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	set_process(false)


## Starts the deal: `from` and `targets` (the other seats) give points in this node's
## coordinates — asked every frame, as the table may still be laying itself out when its first
## deal starts — `rounds` cards each, one card every `gap` s, the player's cards taking every
## `seats_in_turn`-th slot.
func begin(from: Callable, targets: Array[Callable], rounds: int, gap: float, seats_in_turn: int, card: Vector2, arc: float) -> void:
	_from_fn = from
	_target_fns = targets
	_locate()
	_card = card
	_arc = arc
	_starts = PackedFloat32Array()
	_seats = PackedInt32Array()
	for r in rounds:
		for k in _target_fns.size():
			_starts.append(gap * (r * seats_in_turn + k + 1))
			_seats.append(k)
	_t = 0.0
	visible = true
	set_process(not _starts.is_empty())
	queue_redraw()


## Seconds from begin() until the last back has landed.
func duration() -> float:
	return (_starts[_starts.size() - 1] + FLIGHT_S) if not _starts.is_empty() else 0.0


## Backs in the air now (for tests).
func in_flight() -> int:
	var n := 0
	for s in _starts:
		if _t >= s and _t < s + FLIGHT_S:
			n += 1
	return n


func is_running() -> bool:
	return is_processing()


func stop() -> void:
	set_process(false)
	_starts = PackedFloat32Array()
	queue_redraw()


func _locate() -> void:
	_from = _from_fn.call()
	_targets.clear()
	for f in _target_fns:
		_targets.append(f.call())


func _process(delta: float) -> void:
	_t += delta
	_locate()
	if _t >= duration():
		stop()
		return
	queue_redraw()


func _draw() -> void:
	if _starts.is_empty():
		return
	var st := CardStyle.current()
	var box := StyleBoxFlat.new()
	box.bg_color = st.back_color
	box.border_color = st.back_edge_color
	box.set_border_width_all(2)
	box.set_corner_radius_all(int(_card.x * 0.1))
	for i in _starts.size():
		var p := (_t - _starts[i]) / FLIGHT_S
		if p < 0.0 or p >= 1.0:
			continue
		var to := _targets[_seats[i]]
		var at := CardFlight.point(_from, to, p, _arc, 0.0)
		var s := _card * lerpf(1.0, 0.7, p)
		draw_set_transform(at, lerpf(-0.3, 0.0, p) * (1.0 if to.x > _from.x else -1.0), Vector2.ONE)
		draw_style_box(box, Rect2(-s * 0.5, s))
	draw_set_transform(Vector2.ZERO, 0.0, Vector2.ONE)
