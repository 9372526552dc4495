class_name BackFan
extends Control
## A seat's hand as the others see it: a fan of card backs beside the portrait, about as high as it,
## one back for every `cards_per_back` cards left (27 cards: the full fan), so the fan thins as the
## seat plays (the exact count is on the portrait's chip). Its box is sized for a full hand (the
## outer backs' turn included), so the seat never changes width mid-deal.
## The back is the deck's own (a CardView back in the CardStyle in use), rendered once per size and
## style into a texture of the window's pixels; each frame the fan only lays that texture down
## turned. Drawn as shapes, nine anti-aliased rounded backs came to about 6,700 triangles a seat,
## 7 ms of a 40 ms still frame under software rendering (perf_layers, hiding Fan). Sizes and spread
## are exported for designers.

## Cards left (0: no fan).
var count := 27:
	set(v):
		if v != count:
			count = v
			queue_redraw()
## Height of each back.
@export_range(16.0, 120.0, 1.0, "suffix:px") var card_height := 46.0:
	set(v):
		card_height = v
		_resize()
## One back per this many cards, at most max_backs.
@export_range(1, 9, 1) var cards_per_back := 3
@export_range(1, 27, 1) var max_backs := 9:
	set(v):
		max_backs = v
		_resize()
## Horizontal step between backs (px) and the fan's whole spread (degrees).
@export_range(1.0, 40.0, 0.5, "suffix:px") var step := 6.0:
	set(v):
		step = v
		_resize()
@export_range(0.0, 90.0, 1.0, "suffix:°") var spread := 24.0:
	set(v):
		spread = v
		_resize()

## How many times the back has been rendered (tests: a fan that only thins costs no render).
var bakes := 0

var _bake := SubViewport.new()
var _back: CardView = preload("res://hand/card_view.tscn").instantiate()
## The back's size in window pixels, and its shadow's room at the right and bottom.
var _back_px := Vector2i.ZERO
var _pad_px := 0


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_back.card_id = -1
	_back.emblem = true
	_back.shadow = true
	_bake.name = &"BackBake"
	_bake.disable_3d = true
	_bake.transparent_bg = true
	_bake.render_target_update_mode = SubViewport.UPDATE_DISABLED
	_bake.add_child(_back)
	add_child(_bake)
	# Whatever makes the back redraw (its size, a style edit, the high-contrast setting) renders
	# it again; the fan's texture is the viewport's, so it follows by itself.
	_back.draw.connect(_render_back)
	# The texture holds colours already multiplied by their alpha (drawn over a clear viewport).
	var m := CanvasItemMaterial.new()
	m.blend_mode = CanvasItemMaterial.BLEND_MODE_PREMULT_ALPHA
	material = m
	get_viewport().size_changed.connect(queue_redraw)
	_resize()


func _resize() -> void:
	var w := card_height / CardView.ASPECT
	# Room at each side for the outer backs' turn.
	var turn := card_height * 1.4 * sin(deg_to_rad(spread) / 2.0)
	custom_minimum_size = Vector2(w + step * (max_backs - 1) + 2.0 * turn, card_height * 1.1)
	queue_redraw()


## Backs drawn for `cards` cards left.
func backs_for(cards: int) -> int:
	return mini(ceili(float(maxi(cards, 0)) / cards_per_back), max_backs)


func _draw() -> void:
	var n := backs_for(count)
	var w := card_height / CardView.ASPECT
	_fit_back(Vector2(w, card_height))
	if n <= 0:
		return
	var pad := _pad_px / _stretch()
	var tex := _bake.get_texture()
	# The fan turns about a point below its middle; the backs are centred in the box.
	var width := w + step * (n - 1)
	var x0 := (size.x - width) / 2.0
	var pivot_y := size.y * 0.5 + card_height * 0.9
	for i in n:
		var turn := 0.0 if n == 1 else deg_to_rad(spread) * (float(i) / (n - 1) - 0.5)
		draw_set_transform(Vector2(x0 + step * i + w / 2.0, pivot_y), turn, Vector2.ONE)
		var at := Vector2(-w / 2.0, -card_height * 0.9 - card_height / 2.0)
		draw_texture_rect(tex, Rect2(at, Vector2(w + pad, card_height + pad)), false)
	draw_set_transform(Vector2.ZERO, 0.0, Vector2.ONE)


## Window pixels per unit: the stretch's scale (a seat that grows for a moment keeps its back
## instead of rendering a new one every frame).
func _stretch() -> float:
	return get_viewport().get_final_transform().get_scale().x


## Sizes the back (and its viewport) to `logical` at the window's pixel scale; a change makes the
## back redraw, which renders it.
func _fit_back(logical: Vector2) -> void:
	var s := _stretch()
	var px := Vector2i(maxi(roundi(logical.x * s), 4), maxi(roundi(logical.y * s), 4))
	if px == _back_px:
		return
	_back_px = px
	# CardView's shadow falls 2-3 % of the width right and down.
	_pad_px = ceili(px.x * 0.03) + 1
	_bake.size = px + Vector2i(_pad_px, _pad_px)
	_back.size = Vector2(px)


func _render_back() -> void:
	bakes += 1
	_bake.render_target_update_mode = SubViewport.UPDATE_ONCE
