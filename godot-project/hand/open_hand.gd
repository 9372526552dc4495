class_name OpenHand
extends Control
## Another seat's hand shown face up (replays): a compact row of pooled card views, sorted, no
## input. Lays the cards out inside this control's rectangle, overlapping sideways as needed; in
## two whole rows when that shows them larger (issue 24: the second row once covered half of the
## first).

## Least share of a card's width left in view by the next card (its corner index stays readable).
const MIN_STEP := 0.26
## Space between two rows.
const ROW_GAP := 4.0

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


## Whole rows, never one over another: one row, or two stacked with a small gap when that shows
## the cards larger; the cards overlap sideways only, keeping each card's corner (rank and suit)
## in view (at least MIN_STEP of its width).
func _layout() -> void:
	if layer == null or not is_inside_tree():
		return
	var n := _ids.size()
	var best_rows := 1
	var ch := 0.0
	for rows in [1, 2]:
		if rows > n:
			break
		var per := ceili(n / float(rows))
		var h := minf(card_height, (size.y - ROW_GAP * (rows - 1)) / rows)
		# Narrow enough that each card shows MIN_STEP of its width.
		h = minf(h, CardView.ASPECT * size.x / (1.0 + MIN_STEP * maxi(per - 1, 0)))
		if h > ch + 0.5:
			ch = h
			best_rows = rows
	var rows := best_rows
	var cw := ch / CardView.ASPECT
	var per_row := ceili(n / float(rows))
	var step := cw * 0.42
	if per_row > 1 and cw + step * (per_row - 1) > size.x:
		step = maxf((size.x - cw) / (per_row - 1), 3.0)
	var total := cw + step * maxi(per_row - 1, 0)
	var height := ch * rows + ROW_GAP * (rows - 1)
	var origin := layer.to_layer(global_position) + Vector2((size.x - total) / 2.0, (size.y - height) / 2.0)
	for i in n:
		var row := i / per_row
		var col := i % per_row
		var view := layer.view_for(_ids[i])
		view.level = level
		view.face_up = true
		view.stop_tween()
		view.size = Vector2(cw, ch)
		view.position = origin + Vector2(step * col, (ch + ROW_GAP) * row)
		view.z_index = 100 + i
