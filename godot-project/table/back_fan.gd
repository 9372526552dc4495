class_name BackFan
extends Control
## A seat's hand as the others see it: a fan of card backs beside the portrait, about as high as it,
## one back for every `cards_per_back` cards left (27 cards: the full fan), so the fan thins as the
## seat plays (the exact count is on the portrait's chip). Its box is sized for a full hand (the
## outer backs' turn included), so the seat never changes width mid-deal.
## The back's colours are the deck's (CardStyle); sizes and spread are exported for designers.

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

var _box := StyleBoxFlat.new()
var _inner := StyleBoxFlat.new()


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
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
	if n <= 0:
		return
	var style := CardStyle.current()
	var w := card_height / CardView.ASPECT
	var sz := Vector2(w, card_height)
	_box.bg_color = style.back_color
	_box.border_color = style.back_edge_color
	_box.set_border_width_all(maxi(int(w * 0.06), 1))
	_box.set_corner_radius_all(int(w * style.corner_radius * 1.5))
	_box.anti_aliasing = true
	_box.shadow_color = Color(0, 0, 0, 0.35)
	_box.shadow_size = 2
	_inner.bg_color = Color(0, 0, 0, 0)
	_inner.border_color = style.back_emblem_color
	_inner.set_border_width_all(1)
	_inner.set_corner_radius_all(int(w * style.corner_radius))
	# The fan turns about a point below its middle; the backs are centred in the box.
	var width := w + step * (n - 1)
	var x0 := (size.x - width) / 2.0
	var pivot_y := size.y * 0.5 + card_height * 0.9
	for i in n:
		var turn := 0.0 if n == 1 else deg_to_rad(spread) * (float(i) / (n - 1) - 0.5)
		var at := Vector2(x0 + step * i + w / 2.0, pivot_y)
		draw_set_transform(at, turn, Vector2.ONE)
		var r := Rect2(Vector2(-w / 2.0, -card_height * 0.9 - card_height / 2.0), sz)
		draw_style_box(_box, r)
		draw_style_box(_inner, r.grow(-w * 0.14))
	draw_set_transform(Vector2.ZERO, 0.0, Vector2.ONE)
