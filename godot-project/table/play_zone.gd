class_name PlayZone
extends Control
## The centre of the table: each seat's latest play (at most four groups) or its "pass". A seat's
## older play is swept away when it plays again; when the table clears, every group is gathered
## into the middle and vanishes. Card views come from the CardLayer (the pool) and go back to it.

## Where each seat's group sits (this node's coordinates): centre point, and how the group grows
## from it (-1 grows left from the point, 0 centred, 1 grows right).
var slot_centers: Array[Vector2] = [Vector2.ZERO, Vector2.ZERO, Vector2.ZERO, Vector2.ZERO]
var slot_align: Array[int] = [0, -1, 0, 1]
## The box each seat's group must stay inside (this node's coordinates; an empty rect = no
## limit). A long play overlaps its cards more, then shrinks, rather than leave its box — so a
## 10-card bomb never runs over a badge or the next seat's play.
var slot_rects: Array[Rect2] = [Rect2(), Rect2(), Rect2(), Rect2()]
var layer: CardLayer
var card_height := 90.0
## Animation lengths (the table sets its profile).
var pacing: PacingProfile = preload("res://resources/style/pacing_default.tres")
## Plays still on the table when a newer one lands are tinted this way (the newest stands out).
@export var earlier_play_tint := Color(0.62, 0.62, 0.62)
## Plays and gathers happen at once, with no flight (a restored deal being drawn).
var still := false

var _shown: Array[PackedInt32Array] = [PackedInt32Array(), PackedInt32Array(), PackedInt32Array(), PackedInt32Array()]
var _passes: Array[Label] = []
var _tween: Tween


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	var stamp: Label = load("res://table/pass_stamp.tscn").instantiate()
	for seat in 4:
		# A 不出 stamp (table/pass_stamp.tscn: a designer edits its look there).
		var l: Label = stamp.duplicate()
		l.name = "Pass%d" % seat
		l.visible = false
		add_child(l)
		_passes.append(l)
	stamp.free()


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


func card_size() -> Vector2:
	return Vector2(card_height / CardView.ASPECT, card_height)


## Sets a seat's box and alignment (-1 grows left from the box's right edge, 0 centred, 1 grows
## right from its left edge); the slot's anchor point follows from them.
func set_slot(seat: int, rect: Rect2, align: int) -> void:
	slot_rects[seat] = rect
	slot_align[seat] = align
	var y := rect.get_center().y
	slot_centers[seat] = Vector2(rect.end.x if align < 0 else rect.position.x if align > 0 else rect.get_center().x, y)


## [left x, step, card size] of a row of `count` cards in `seat`'s slot: the usual 42 % step,
## tightened (down to 14 %) and then scaled down until the row fits the slot's box.
func _row(seat: int, count: int) -> Array:
	var sz := card_size()
	var box := slot_rects[seat]
	if box.size.y > 1.0 and sz.y > box.size.y:
		sz *= box.size.y / sz.y
	var step := sz.x * 0.42
	if box.size.x > 1.0 and count > 0:
		var width := sz.x + step * (count - 1)
		if width > box.size.x and count > 1:
			step = maxf((box.size.x - sz.x) / (count - 1), sz.x * 0.14)
			width = sz.x + step * (count - 1)
		if width > box.size.x:
			var k := box.size.x / width
			sz *= k
			step *= k
	var width := sz.x + step * maxi(count - 1, 0)
	var cx := slot_centers[seat].x
	var x0 := cx - width / 2.0
	if slot_align[seat] < 0:
		x0 = cx - width
	elif slot_align[seat] > 0:
		x0 = cx
	return [x0, step, sz]


## The global rectangle a seat's shown group (or its Pass label) covers; empty when nothing is shown.
func group_rect(seat: int) -> Rect2:
	if _passes[seat].visible:
		return _passes[seat].get_global_rect()
	var out := Rect2()
	for id in _shown[seat]:
		var v := layer.find_view(id)
		if v == null:
			continue
		var r := Rect2(v.global_position, v.size * v.scale)
		out = r if out.size == Vector2.ZERO else out.merge(r)
	return out


## Seconds a play takes to fly in at the current animation speed.
func play_time() -> float:
	return 0.0 if still else Settings.anim_time(pacing.play_s)


## Ids shown for a seat.
func shown(seat: int) -> PackedInt32Array:
	return _shown[seat].duplicate()


func group_count() -> int:
	var n := 0
	for seat in 4:
		if not _shown[seat].is_empty() or _passes[seat].visible:
			n += 1
	return n


## Shows a play for `seat`. `views` are views already on screen (the player's own cards taken
## from the hand) that fly to the slot; other cards appear at `from` (global) and fly in. Returns
## the seconds the animation takes. With the `play` (its dictionary) the cards are shown as they
## read, a wild in the group it completes with the rank it stands for (PlayText.arranged).
func show_play(seat: int, ids: PackedInt32Array, from: Vector2, views: Array[CardView] = [], level := 2,
		play: Play = null) -> float:
	clear_seat(seat)
	# The newest play stands out: the earlier ones still on the table dim.
	for other in 4:
		for id in _shown[other]:
			var v := layer.find_view(id)
			if v != null:
				v.modulate = Color(earlier_play_tint, 1.0)
	var stands := {}
	var sorted := PackedInt32Array()
	if play == null:
		sorted = Cards.sorted(ids, level)
	else:
		for c: Array in PlayText.arranged(play, level):
			sorted.append(c[0])
			stands[c[0]] = c[1]
	_shown[seat] = sorted
	var row := _row(seat, sorted.size())
	var x0: float = row[0]
	var step: float = row[1]
	var sz: Vector2 = row[2]
	var c := slot_centers[seat]
	var origin := layer.to_layer(global_position)
	var t := play_time()
	var by_id := {}
	for v in views:
		by_id[v.card_id] = v
	for i in sorted.size():
		var id := sorted[i]
		var view: CardView = by_id.get(id)
		var start_scale := 1.0
		if view == null:
			view = layer.view_for(id)
			view.position = layer.to_layer(from) - sz * 0.35
			start_scale = 0.7
		elif view.size.x > 0.0:
			start_scale = view.size.x * view.scale.x / sz.x
		view.level = level
		view.stands_for = stands.get(id, 0)
		view.face_up = true
		view.modulate = Color.WHITE
		view.z_index = 200 + seat * 20 + i
		# Drawn at the final size at once; the flight animates position and scale only (a size
		# tween would redraw the card every frame).
		view.size = sz
		var target := origin + Vector2(x0 + step * i, c.y - sz.y / 2.0)
		if t > 0.0:
			view.scale = Vector2.ONE * start_scale
			view.new_tween().set_parallel(true)
			CardFlight.fly(view, view.tween, target, t, pacing)
			view.tween.tween_property(view, "scale", Vector2.ONE, t)
		else:
			view.stop_tween()
			view.position = target
			view.scale = Vector2.ONE
	return t


## Puts every shown group back in its slot at once (after a resize: slots moved).
func relayout(level := 2) -> void:
	for seat in 4:
		if not _shown[seat].is_empty():
			var ids := _shown[seat]
			var views: Array[CardView] = []
			for id in ids:
				var v := layer.find_view(id)
				if v != null:
					v.stop_tween()
					views.append(v)
			_place(seat, ids, views, level)
		elif _passes[seat].visible:
			show_pass(seat)


func show_pass(seat: int) -> void:
	clear_seat(seat)
	var l := _passes[seat]
	l.visible = true
	l.reset_size()
	var c := slot_centers[seat]
	var x := c.x - l.size.x / 2.0
	if slot_align[seat] < 0:
		x = c.x - l.size.x
	elif slot_align[seat] > 0:
		x = c.x
	l.position = Vector2(x, c.y - l.size.y / 2.0)
	l.pivot_offset = l.size / 2.0
	# Stamped: it lands a little large and settles.
	var t := 0.0 if still else Settings.anim_time(pacing.play_s * 0.6)
	if t > 0.0:
		l.scale = Vector2.ONE * 1.35
		l.modulate.a = 0.0
		var tw := l.create_tween().set_parallel(true)
		tw.tween_property(l, "scale", Vector2.ONE, t).set_trans(Tween.TRANS_BACK).set_ease(Tween.EASE_OUT)
		tw.tween_property(l, "modulate:a", 1.0, t * 0.5)
	else:
		l.scale = Vector2.ONE
		l.modulate.a = 1.0


func _place(seat: int, ids: PackedInt32Array, views: Array[CardView], level: int) -> void:
	var row := _row(seat, ids.size())
	var x0: float = row[0]
	var step: float = row[1]
	var sz: Vector2 = row[2]
	var c := slot_centers[seat]
	var origin := layer.to_layer(global_position)
	for i in views.size():
		var view := views[i]
		view.level = level
		view.size = sz
		view.scale = Vector2.ONE
		view.position = origin + Vector2(x0 + step * ids.find(view.card_id), c.y - sz.y / 2.0)


## Takes down a seat's "Pass" (its turn has come round again); its cards, if any, stay.
func clear_pass(seat: int) -> void:
	_passes[seat].visible = false


## Whether a seat's "Pass" is shown.
func pass_shown(seat: int) -> bool:
	return _passes[seat].visible


## Removes a seat's group at once (its cards go back to the pool).
func clear_seat(seat: int) -> void:
	_passes[seat].visible = false
	for id in _shown[seat]:
		layer.release(id)
	_shown[seat] = PackedInt32Array()


## Gathers every group into the middle, fading, then returns the cards to the pool. Returns the
## seconds it takes (0 when animations are off: cleared at once).
func gather(to_local: Vector2) -> float:
	for l in _passes:
		l.visible = false
	var t := 0.0 if still else Settings.anim_time(pacing.gather_s)
	var ids := PackedInt32Array()
	for seat in 4:
		ids.append_array(_shown[seat])
		_shown[seat] = PackedInt32Array()
	if t <= 0.0 or ids.is_empty():
		for id in ids:
			layer.release(id)
		return 0.0
	var target := layer.to_layer(global_position) + to_local - card_size() * 0.25
	for id in ids:
		var view := layer.find_view(id)
		if view == null:
			continue
		view.new_tween().set_parallel(true)
		view.tween.tween_property(view, "position", target, t).set_trans(Tween.TRANS_CUBIC).set_ease(Tween.EASE_IN)
		view.tween.tween_property(view, "scale", Vector2.ONE * 0.5, t)
		view.tween.tween_property(view, "modulate:a", 0.0, t)
		view.tween.chain().tween_callback(layer.release.bind(id))
	return t


## Clears everything at once (new deal, rebuild).
func reset() -> void:
	for seat in 4:
		clear_seat(seat)
