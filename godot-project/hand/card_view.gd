class_name CardView
extends Control
## One card, drawn with vector calls (no textures), so it is crisp at any size. Created only by
## CardPool and reused for the whole match: set `card_id`, `face_up` and the flags, never free it.
##
## Input is not handled here (mouse_filter IGNORE): the hand's input state machine hit-tests cards
## by their layout rectangles.

const ASPECT := 1.4  # height / width
const FACE := Color(0.985, 0.98, 0.96)
const LEVEL_FACE := Color(1.0, 0.96, 0.84)
const BORDER := Color(0.45, 0.45, 0.45)
const RED := Color(0.82, 0.1, 0.12)
const BLACK := Color(0.1, 0.1, 0.12)
const GOLD := Color(0.95, 0.74, 0.2)
const BACK := Color(0.55, 0.1, 0.14)
const BACK_LINE := Color(0.68, 0.2, 0.24)
const SELECTED_TINT := Color(0.3, 0.6, 1.0, 0.22)
const HINT_BORDER := Color(0.25, 0.95, 1.0)  # cyan: never confused with the gold of wilds

## One font for everything on a card, imported as a multichannel signed distance field: glyphs are
## rendered from one atlas at any size (crisp when cards scale, no per-size rasterizing).
static var _rank_font: Font
static var _text_font: Font

var card_id := -1:
	set(v):
		if card_id != v:
			card_id = v
			queue_redraw()
var face_up := true:
	set(v):
		if face_up != v:
			face_up = v
			queue_redraw()
## The level rank (2..14) of the deal: level cards get a warm face, wilds a gold frame.
var level := 2:
	set(v):
		if level != v:
			level = v
			queue_redraw()
var selected := false:
	set(v):
		if selected != v:
			selected = v
			queue_redraw()
## Hint highlight (training mode).
var hinted := false:
	set(v):
		if hinted != v:
			hinted = v
			queue_redraw()
## 0..1: the wild-snap glow.
var glow := 0.0:
	set(v):
		if glow != v:
			glow = v
			queue_redraw()
## Heat map colour (alpha 0 = none).
var heat := Color(0, 0, 0, 0):
	set(v):
		if heat != v:
			heat = v
			queue_redraw()
## Manual group colour bar (alpha 0 = none).
var group_color := Color(0, 0, 0, 0):
	set(v):
		if group_color != v:
			group_color = v
			queue_redraw()
var dimmed := false:
	set(v):
		if dimmed != v:
			dimmed = v
			queue_redraw()
## Draw a soft shadow (off in low-performance mode).
var shadow := true:
	set(v):
		if shadow != v:
			shadow = v
			queue_redraw()

## The tween moving this card, killed before a new one starts and when the card leaves the tree.
var tween: Tween


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	focus_mode = Control.FOCUS_NONE
	if _rank_font == null:
		_rank_font = load("res://fonts/guandan_sans_bold.otf")
		_text_font = _rank_font


func _notification(what: int) -> void:
	if what == NOTIFICATION_EXIT_TREE:
		stop_tween()
	elif what == NOTIFICATION_TRANSLATION_CHANGED:
		queue_redraw()


## A new tween for this card (the previous one is killed).
func new_tween() -> Tween:
	stop_tween()
	tween = create_tween()
	return tween


func stop_tween() -> void:
	if tween != null:
		tween.kill()
		tween = null


## Back to a neutral state for reuse.
func reset() -> void:
	stop_tween()
	selected = false
	hinted = false
	glow = 0.0
	heat = Color(0, 0, 0, 0)
	group_color = Color(0, 0, 0, 0)
	dimmed = false
	face_up = true
	rotation = 0.0
	scale = Vector2.ONE
	modulate = Color.WHITE
	visible = true


func _draw() -> void:
	var r := Rect2(Vector2.ZERO, size)
	var w := size.x
	if w < 4.0:
		return
	var radius := w * 0.08
	if shadow:
		_round_rect(Rect2(r.position + Vector2(w * 0.02, w * 0.03), r.size), radius, Color(0, 0, 0, 0.28))
	if glow > 0.0:
		var g := w * 0.06 * glow
		_round_rect(r.grow(g), radius + g, Color(GOLD, 0.55 * glow))
	if not face_up or card_id < 0:
		_draw_back(r, radius)
	else:
		_draw_face(r, radius)
	if heat.a > 0.0:
		_round_rect(r, radius, heat)
	if selected:
		_round_rect(r, radius, SELECTED_TINT)
		_round_rect_outline(r, radius, Color(0.25, 0.55, 1.0), maxf(2.0, w * 0.03))
	if hinted:
		_round_rect_outline(r.grow(w * 0.01), radius, HINT_BORDER, maxf(2.0, w * 0.05))
	if group_color.a > 0.0:
		draw_rect(Rect2(w * 0.06, 0, w * 0.5, maxf(3.0, w * 0.05)), group_color)
	if dimmed:
		_round_rect(r, radius, Color(0, 0, 0, 0.28))


func _draw_face(r: Rect2, radius: float) -> void:
	var w := r.size.x
	var h := r.size.y
	var level_card := Cards.is_level_card(card_id, level)
	var wild := Cards.is_wild(card_id, level)
	_round_rect(r, radius, LEVEL_FACE if level_card else FACE)
	_round_rect_outline(r, radius, GOLD if wild else BORDER, maxf(1.0, w * (0.045 if wild else 0.012)))
	var color := RED if Cards.is_red(card_id) else BLACK
	if Cards.is_joker(card_id):
		var big := Cards.value(card_id) == Cards.BIG_JOKER
		var letters := "JOKER"
		var fs := int(w * 0.17)
		for i in letters.length():
			_text(_rank_font, letters[i], Vector2(w * 0.06, h * 0.05 + fs * 0.95 * i), fs, color, w * 0.2)
		var star_color := Color(0.85, 0.12, 0.15) if big else Color(0.2, 0.2, 0.25)
		_centered(_text_font, "★", Vector2(w * 0.6, h * 0.58), int(w * 0.62), star_color)
		return
	var rank := Cards.rank(card_id)
	var label := Cards.rank_label(rank)
	var suit_glyph: String = Cards.SUIT_GLYPHS[int(Cards.suit(card_id))]
	var rank_size := int(w * (0.3 if label.length() == 1 else 0.25))
	_text(_rank_font, label, Vector2(w * 0.05, h * 0.04), rank_size, color, w * 0.38)
	_text(_text_font, suit_glyph, Vector2(w * 0.06, h * 0.04 + rank_size * 1.05), int(w * 0.24), color, w * 0.3)
	if wild:
		var c := Vector2(w * 0.2, h * 0.04 + rank_size * 1.05 + w * 0.42)
		draw_circle(c, w * 0.12, GOLD)
		_centered(_rank_font, tr("CARD_WILD_BADGE"), c, int(w * 0.15), Color(0.35, 0.15, 0.0))
	if rank >= 11 and rank <= 13:
		_centered(_rank_font, label, Vector2(w * 0.6, h * 0.5), int(w * 0.5), Color(color, 0.85))
		_centered(_text_font, suit_glyph, Vector2(w * 0.72, h * 0.8), int(w * 0.3), color)
	else:
		_centered(_text_font, suit_glyph, Vector2(w * 0.6, h * 0.6), int(w * 0.56), color)


func _draw_back(r: Rect2, radius: float) -> void:
	var w := r.size.x
	_round_rect(r, radius, BACK)
	var inner := r.grow(-w * 0.07)
	var step := w * 0.16
	var lines := PackedVector2Array()
	var x := inner.position.x - inner.size.y
	while x < inner.end.x:
		# Diagonals clipped to the inner rectangle: a lattice.
		for dir in [1.0, -1.0]:
			var a := Vector2(x, inner.position.y if dir > 0 else inner.end.y)
			var b := a + Vector2(inner.size.y, inner.size.y * dir)
			var seg := _clip(a, b, inner)
			if seg.size() == 2:
				lines.append_array(seg)
		x += step
	if lines.size() > 0:
		draw_multiline(lines, BACK_LINE, maxf(1.0, w * 0.015))
	_round_rect_outline(inner, radius * 0.6, GOLD, maxf(1.0, w * 0.025))
	var c := r.get_center()
	var d := w * 0.22
	draw_colored_polygon(PackedVector2Array([c + Vector2(0, -d * 1.3), c + Vector2(d, 0),
			c + Vector2(0, d * 1.3), c + Vector2(-d, 0)]), GOLD)
	_round_rect_outline(r, radius, Color(0.3, 0.05, 0.08), maxf(1.0, w * 0.012))


## Segment a-b clipped to rect (Liang–Barsky); empty if outside.
static func _clip(a: Vector2, b: Vector2, rect: Rect2) -> PackedVector2Array:
	var t0 := 0.0
	var t1 := 1.0
	var d := b - a
	var p := [-d.x, d.x, -d.y, d.y]
	var q := [a.x - rect.position.x, rect.end.x - a.x, a.y - rect.position.y, rect.end.y - a.y]
	for i in 4:
		if is_zero_approx(p[i]):
			if q[i] < 0:
				return PackedVector2Array()
			continue
		var t: float = q[i] / p[i]
		if p[i] < 0:
			t0 = maxf(t0, t)
		else:
			t1 = minf(t1, t)
	if t0 > t1:
		return PackedVector2Array()
	return PackedVector2Array([a + d * t0, a + d * t1])


func _text(font: Font, text: String, top_left: Vector2, font_size: int, color: Color, max_w: float) -> void:
	var ascent := font.get_ascent(font_size)
	draw_string(font, top_left + Vector2(0, ascent), text, HORIZONTAL_ALIGNMENT_CENTER, max_w, font_size, color)


func _centered(font: Font, text: String, center: Vector2, font_size: int, color: Color) -> void:
	var s := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size)
	var ascent := font.get_ascent(font_size)
	var descent := font.get_descent(font_size)
	draw_string(font, center + Vector2(-s.x / 2.0, (ascent - descent) / 2.0), text,
			HORIZONTAL_ALIGNMENT_LEFT, -1, font_size, color)


func _round_rect(r: Rect2, radius: float, color: Color) -> void:
	draw_colored_polygon(_rounded(r, radius), color)


func _round_rect_outline(r: Rect2, radius: float, color: Color, width: float) -> void:
	var pts := _rounded(r.grow(-width / 2.0), maxf(radius - width / 2.0, 0.0))
	pts.append(pts[0])
	draw_polyline(pts, color, width, true)


## Points of a rounded rectangle (4 segments per corner: enough at card sizes).
static func _rounded(r: Rect2, radius: float) -> PackedVector2Array:
	var pts := PackedVector2Array()
	var rad := minf(radius, minf(r.size.x, r.size.y) / 2.0)
	var corners := [r.position + Vector2(r.size.x - rad, rad), r.end - Vector2(rad, rad),
		r.position + Vector2(rad, r.size.y - rad), r.position + Vector2(rad, rad)]
	var start_angles := [-PI / 2.0, 0.0, PI / 2.0, PI]
	for i in 4:
		for k in 5:
			var a: float = start_angles[i] + (PI / 2.0) * k / 4.0
			pts.append(corners[i] + Vector2(cos(a), sin(a)) * rad)
	return pts
