class_name CardMarks
extends RefCounted
## The marks training puts on the player's cards: the hint border, the wild snap (wilds lifted
## half-way and glowing, pulsing, until the selection changes) and the heat map's colour bars.
## HandView owns one; it lifts the snapped cards and draws the bars where this says.

var _hand: HandView
## id -> true: wilds lifted and glowing (wild snap).
var snap := {}
var _snap_tween: Tween
## id -> heat map colour.
var heat := {}


func _init(hand: HandView) -> void:
	_hand = hand


## Cards drawn with the hint border.
func set_hinted(views: Array[CardView], ids: PackedInt32Array) -> void:
	var wanted := {}
	for id in ids:
		wanted[id] = true
	for view in views:
		view.hinted = wanted.has(view.card_id)


## Snaps these cards (those in `hand_ids`); false when that was the snap already.
func set_snap(ids: PackedInt32Array, hand_ids: PackedInt32Array, layer: CardLayer) -> bool:
	var wanted := {}
	for id in ids:
		if id in hand_ids:
			wanted[id] = true
	if wanted.keys() == snap.keys():
		return false
	if _snap_tween != null:
		_snap_tween.kill()
		_snap_tween = null
	for id in snap:
		var v := layer.find_view(id)
		if v != null:
			v.glow = 0.0
	snap = wanted
	if not snap.is_empty():
		var views: Array[CardView] = []
		for id in snap:
			var v := layer.find_view(id)
			if v != null:
				v.glow = 1.0
				views.append(v)
		if Settings.effects_on() and not views.is_empty():
			# The hand's tween: it stops with the hand.
			_snap_tween = _hand.create_tween().set_loops().set_parallel(true)
			for v in views:
				_snap_tween.tween_property(v, "glow", 0.35, 0.45).set_trans(Tween.TRANS_SINE)
			_snap_tween.chain()
			for v in views:
				_snap_tween.tween_property(v, "glow", 1.0, 0.45).set_trans(Tween.TRANS_SINE)
	return true


## Drops the snap at once (the hand was cleared).
func clear_snap() -> void:
	snap.clear()
	if _snap_tween != null:
		_snap_tween.kill()
		_snap_tween = null


## Draws the heat bars above each card's visible strip, never over the face, so a black suit
## stays black (`order`: ids left to right; `strips`: their visible x ranges).
func draw_heat(canvas: Control, order: PackedInt32Array, strips: Array[Vector2]) -> void:
	if heat.is_empty():
		return
	for i in mini(order.size(), strips.size()):
		var c: Color = heat.get(order[i], Color(0, 0, 0, 0))
		if c.a > 0.0:
			var strip := strips[i]
			canvas.draw_rect(Rect2(strip.x + 1.0, 2.0, maxf(strip.y - strip.x - 2.0, 2.0), 7.0), Color(c, clampf(c.a * 2.2, 0.6, 1.0)))
