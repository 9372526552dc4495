class_name OpenHand
extends Control
## Another seat's hand shown face up (replays): a compact row of pooled card views, sorted, no
## input. Lays the cards out inside this control's rectangle, overlapping as needed.

var layer: CardLayer
var level := 2
var card_height := 64.0

var _ids := PackedInt32Array()


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	resized.connect(_layout)


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
	var step := cw * 0.42
	if n > 1 and cw + step * (n - 1) > size.x:
		step = maxf((size.x - cw) / (n - 1), 3.0)
	var total := cw + step * maxi(n - 1, 0)
	var origin := layer.to_layer(global_position) + Vector2((size.x - total) / 2.0, (size.y - ch) / 2.0)
	for i in n:
		var view := layer.view_for(_ids[i])
		view.level = level
		view.face_up = true
		view.stop_tween()
		view.size = Vector2(cw, ch)
		view.position = origin + Vector2(step * i, 0)
		view.z_index = 100 + i
