class_name OpenHand
extends Control
## Another seat's hand shown face up (replays): a compact row of pooled card views, sorted, no
## input. Lays the cards out inside this control's rectangle, overlapping as needed; when one row
## would hide the ranks, in two rows (the second overlapping the first's lower half).

var layer: CardLayer
var level := 2
var card_height := 64.0

var _ids := PackedInt32Array()


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	item_rect_changed.connect(_layout)  # moved or resized: the cards follow


func set_cards(ids: PackedInt32Array) -> void:
	var keep := {}
	for id in ids:
		keep[id] = true
	for id in _ids:
		if not keep.has(id):
			layer.release(id)
	_ids = Cards.sorted(ids, level)
	_layout()


func cards() -> PackedInt32Array:
	return _ids.duplicate()


func clear() -> void:
	for id in _ids:
		layer.release(id)
	_ids = PackedInt32Array()


func _layout() -> void:
	if layer == null or not is_inside_tree():
		return
	var n := _ids.size()
	var ch := minf(card_height, size.y)
	var cw := ch / CardView.ASPECT
	var rows := 1
	if n > 1 and cw + cw * 0.3 * (n - 1) > size.x:
		rows = 2
		ch = minf(card_height, size.y / 1.45)
		cw = ch / CardView.ASPECT
	var per_row := ceili(n / float(rows))
	var step := cw * 0.42
	if per_row > 1 and cw + step * (per_row - 1) > size.x:
		step = maxf((size.x - cw) / (per_row - 1), 3.0)
	var total := cw + step * maxi(per_row - 1, 0)
	var height := ch * (1.0 + 0.45 * (rows - 1))
	var origin := layer.to_layer(global_position) + Vector2((size.x - total) / 2.0, (size.y - height) / 2.0)
	for i in n:
		var row := i / per_row
		var col := i % per_row
		var view := layer.view_for(_ids[i])
		view.level = level
		view.face_up = true
		view.stop_tween()
		view.size = Vector2(cw, ch)
		view.position = origin + Vector2(step * col, ch * 0.45 * row)
		view.z_index = 100 + i
