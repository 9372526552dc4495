@tool
class_name CardView
extends Control
## One card, drawn with vector calls, so it is crisp at any size; only the J/Q/K figures are
## textures (res://cards/court/, see tools/gen-assets cards). The colours, corner
## radius and font sizes come from the CardStyle in use (res://resources/style/*.tres). At the
## table cards come from the CardLayer (the pool, which instances card_view.tscn) and are reused
## for the whole match: set `card_id`, `face_up` and the flags, never free one.
##
## A tool script: open hand/card_view.tscn and set `card_id` (0..107, see Cards) or `notation`,
## `level` or the flags in the inspector to preview any card with the current style.
##
## Input is not handled here (mouse_filter IGNORE): the hand's input state machine hit-tests cards
## by their layout rectangles.

const ASPECT := 1.4  # height / width
## Group of every card view (CardStyle.use() redraws them all).
const GROUP := &"card_views"
## The court pictures (tools/gen-assets cards): <rank>_<suit>.png, height / width of the deck's
## framed picture (drawn cropped to cover figure_rect(), so other art may have another aspect).
const COURT_DIR := "res://cards/court/"
const COURT_ASPECT := 270.0 / 170.0
const COURT_RANKS: Array[String] = ["jack", "queen", "king"]
const COURT_SUITS: Array[String] = ["spade", "heart", "club", "diamond"]  # Cards.Suit order

## One font for everything on a card, imported as a multichannel signed distance field: glyphs are
## rendered from one atlas at any size (crisp when cards scale, no per-size rasterizing).
static var _rank_font: Font
static var _text_font: Font
static var _court_textures := {}  # "king_heart" -> Texture2D (null: file missing)
## The court pictures cut and scaled for a box of window pixels: "king_heart@52x98" -> texture.
static var _court_sized := {}
## More sizes than a session needs (every hand and play size of every window): start again.
const COURT_SIZED_MAX := 240

## 0..107 (-1 = no card: the back is drawn).
@export_range(-1, 107) var card_id := -1:
	set(v):
		if card_id != v:
			card_id = v
			queue_redraw()
@export var face_up := true:
	set(v):
		if face_up != v:
			face_up = v
			queue_redraw()
## The same card in notation (SA, HT, D2; SB small joker, HR big joker): an easier way to pick
## the previewed card in the inspector. Not saved (card_id is).
@export_custom(PROPERTY_HINT_PLACEHOLDER_TEXT, "SA, HT, D2, SB, HR", PROPERTY_USAGE_EDITOR) var notation: String:
	get:
		return Cards.notation(card_id) if card_id >= 0 else ""
	set(v):
		var ids := Cards.from_notation(v.strip_edges().to_upper())
		if ids.size() == 1:
			card_id = ids[0]
## The level rank (2..14) of the deal: level cards get a warm face, wilds a gold frame.
@export_range(2, 14) var level := 2:
	set(v):
		if level != v:
			level = v
			queue_redraw()
## A wild in a play: the rank (2..14) it stands for, shown in its corner over the wild's badge
## ("A" on the ♥4 that makes AAA+33); 0 = its own.
var stands_for := 0:
	set(v):
		if stands_for != v:
			stands_for = v
			queue_redraw()
@export var selected := false:
	set(v):
		if selected != v:
			selected = v
			queue_redraw()
## Hint highlight (training mode).
@export var hinted := false:
	set(v):
		if hinted != v:
			hinted = v
			queue_redraw()
## 0..1: the wild-snap glow.
@export_range(0.0, 1.0, 0.01) var glow := 0.0:
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
@export var dimmed := false:
	set(v):
		if dimmed != v:
			dimmed = v
			queue_redraw()
## Draw a soft shadow (off in low-performance mode).
@export var shadow := true:
	set(v):
		if shadow != v:
			shadow = v
			queue_redraw()

## Draw the back's centre emblem (off where a count is written over the back, e.g. seat badges).
@export var emblem := true:
	set(v):
		if emblem != v:
			emblem = v
			queue_redraw()

## What the face last drew as its picture: &"pips", &"court_texture", &"court_letter" (no
## figure file), &"small_joker" or &"big_joker" (empty before the first face is drawn).
var face_art := &""

## The tween moving this card, killed before a new one starts and when the card leaves the tree.
var tween: Tween


var _style: CardStyle  # the style last drawn with: editing it redraws the card


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	focus_mode = Control.FOCUS_NONE
	# The court pictures are drawn 1:1 from copies scaled for the card (court_picture()).
	texture_filter = CanvasItem.TEXTURE_FILTER_LINEAR
	add_to_group(GROUP)
	if _rank_font == null:
		_rank_font = load("res://fonts/guandan_sans_bold.otf")
		_text_font = _rank_font


func _enter_tree() -> void:
	var settings := get_node_or_null(^"/root/Settings")
	if settings != null and not settings.changed.is_connected(_on_setting_changed):
		settings.changed.connect(_on_setting_changed)


func _notification(what: int) -> void:
	if what == NOTIFICATION_EXIT_TREE:
		stop_tween()
		var settings := get_node_or_null(^"/root/Settings")
		if settings != null and settings.changed.is_connected(_on_setting_changed):
			settings.changed.disconnect(_on_setting_changed)
	elif what == NOTIFICATION_TRANSLATION_CHANGED:
		queue_redraw()


func _on_setting_changed(key: StringName, _value: Variant) -> void:
	if key == &"high_contrast_cards":
		queue_redraw()


## The style this card is drawn with (CardStyle.current()); follows its edits.
func style() -> CardStyle:
	var s := CardStyle.current()
	if s != _style:
		if _style != null and _style.changed.is_connected(queue_redraw):
			_style.changed.disconnect(queue_redraw)
		_style = s
		_style.changed.connect(queue_redraw)
	return s


## Colour of this card's rank and suit in the current style.
func ink() -> Color:
	return style().ink(card_id)


## Corner radius in pixels at the current size.
func corner_radius_px() -> float:
	return size.x * style().corner_radius


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
	stands_for = 0
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
	var st := style()
	var radius := w * st.corner_radius
	if shadow:
		_round_rect(Rect2(r.position + Vector2(w * 0.02, w * 0.03), r.size), radius, st.shadow_color)
	if glow > 0.0:
		var g := w * 0.06 * glow
		_round_rect(r.grow(g), radius + g, Color(st.wild_frame_color, 0.55 * glow))
	if not face_up or card_id < 0:
		_draw_back(st, r, radius)
	else:
		_draw_face(st, r, radius)
	if heat.a > 0.0:
		_round_rect(r, radius, heat)
	if selected:
		_round_rect(r, radius, st.selected_tint)
		_round_rect_outline(r, radius, st.selected_border, maxf(2.0, w * 0.03))
	if hinted:
		_round_rect_outline(r.grow(w * 0.01), radius, st.hint_border, maxf(2.0, w * 0.05))
	if group_color.a > 0.0:
		draw_rect(Rect2(w * 0.06, 0, w * 0.5, maxf(3.0, w * 0.05)), group_color)
	if dimmed:
		_round_rect(r, radius, st.dim_color)


func _draw_face(st: CardStyle, r: Rect2, radius: float) -> void:
	var w := r.size.x
	var h := r.size.y
	var level_card := Cards.is_level_card(card_id, level)
	var wild := Cards.is_wild(card_id, level)
	_round_rect(r, radius, st.level_face_color if level_card else st.face_color)
	_round_rect_outline(r, radius, st.wild_frame_color if wild else st.border_color,
			maxf(1.0, w * (st.wild_frame_width if wild else st.border_width)))
	var color := st.ink(card_id)
	if Cards.is_joker(card_id):
		_draw_joker(st, r, Cards.rank(card_id) == 16, color)
		return
	var rank := Cards.rank(card_id)
	var label := Cards.rank_label(stands_for if wild and stands_for > 0 else rank)
	var suit_glyph: String = Cards.SUIT_GLYPHS[int(Cards.suit(card_id))]
	var court := rank >= 11 and rank <= 13
	var art := court_texture(card_id) if court else null
	if art != null:
		# Full face: the picture first, the index column and the wild mark over its left edge.
		face_art = &"court_texture"
		var box := figure_rect()
		var px := Vector2i((box.size * _stretch()).round())
		draw_texture_rect(court_picture(card_id, px), box, false)
		draw_rect(box, Color(color, 0.55), false, maxf(1.0, w * 0.01))
	var rank_size := int(w * (st.rank_size if label.length() == 1 else st.rank_size_two_chars))
	var suit_size := int(w * st.corner_suit_size)
	if art != null:
		# A strip of paper behind the index, so it reads over the picture's frame.
		var strip_h := h * 0.04 + rank_size * 1.05 + suit_size * 1.1
		_index_strip(st, strip_h, level_card)
	_text(_rank_font, label, Vector2(w * 0.05, h * 0.04), rank_size, color, w * 0.38)
	_text(_text_font, suit_glyph, Vector2(w * 0.06, h * 0.04 + rank_size * 1.05), suit_size, color, w * 0.3)
	if wild:
		var c := Vector2(w * 0.2, h * 0.04 + rank_size * 1.05 + suit_size + w * 0.18)
		if art != null:
			draw_circle(c, w * 0.145, st.face_color)
		draw_circle(c, w * 0.12, st.wild_frame_color)
		_centered(_rank_font, tr("CARD_WILD_BADGE"), c, int(w * 0.15), st.wild_badge_text_color)
	if art != null:
		return
	if court:
		face_art = &"court_letter"
		_centered(_rank_font, label, Vector2(w * 0.6, h * 0.5), int(w * st.court_size), Color(color, 0.85))
		_centered(_text_font, suit_glyph, Vector2(w * 0.72, h * 0.8), int(w * 0.3), color)
	else:
		face_art = &"pips"
		_centered(_text_font, suit_glyph, Vector2(w * 0.6, h * 0.6), int(w * st.centre_suit_size), color)


## Where the picture of a court card or joker goes: the whole face right of the index column
## (which the hand's overlapping strip shows), from the top edge to the bottom edge.
func figure_rect() -> Rect2:
	var w := size.x
	var h := size.y
	return Rect2(Vector2(w * 0.27, h * 0.03), Vector2(w * 0.7, h * 0.94))


## The part of a picture of `tex_size` that covers a box of `box_size` without stretching: the
## whole height or width, cut evenly on the other side.
static func cover_region(tex_size: Vector2, box_size: Vector2) -> Rect2:
	if tex_size.x <= 0.0 or tex_size.y <= 0.0 or box_size.x <= 0.0 or box_size.y <= 0.0:
		return Rect2(Vector2.ZERO, tex_size)
	var want := box_size.x / box_size.y
	if tex_size.x / tex_size.y > want:
		var cw := tex_size.y * want
		return Rect2(Vector2((tex_size.x - cw) / 2.0, 0.0), Vector2(cw, tex_size.y))
	var ch := tex_size.x / want
	return Rect2(Vector2(0.0, (tex_size.y - ch) / 2.0), Vector2(tex_size.x, ch))


## The court figure of this card (J/Q/K) from res://cards/court/, or null (other cards, or the
## file is missing: the card is then drawn with a big letter).
static func court_texture(id: int) -> Texture2D:
	var rank := Cards.rank(id)
	if Cards.is_joker(id) or rank < 11 or rank > 13:
		return null
	var key := "%s_%s" % [COURT_RANKS[rank - 11], COURT_SUITS[int(Cards.suit(id))]]
	if not _court_textures.has(key):
		var path := COURT_DIR + key + ".png"
		_court_textures[key] = load(path) if ResourceLoader.exists(path) else null
	return _court_textures[key]


## The court figure of card `id` cut to cover a box of `px` window pixels (cover_region) and
## scaled to it once (Lanczos), for drawing 1:1: sampling the 256-pixel picture through its
## mipmaps on every frame cost about 2 ms of a 38 ms frame under software rendering (perf_layers),
## and the scaled copy is sharper. Null where court_texture() is.
static func court_picture(id: int, px: Vector2i) -> Texture2D:
	var art := court_texture(id)
	if art == null or px.x < 1 or px.y < 1:
		return art
	var key := "%s@%dx%d" % [art.resource_path.get_file().get_basename(), px.x, px.y]
	if not _court_sized.has(key):
		if _court_sized.size() >= COURT_SIZED_MAX:
			_court_sized.clear()
		var img := art.get_image()
		img.clear_mipmaps()
		if img.is_compressed():
			img.decompress()
		img = img.get_region(Rect2i(cover_region(art.get_size(), Vector2(px))))
		img.resize(px.x, px.y, Image.INTERPOLATE_LANCZOS)
		_court_sized[key] = ImageTexture.create_from_image(img)
	return _court_sized[key]


## Window pixels per unit of this card's size: the stretch's scale, not the card's own (a flying or
## growing card keeps its picture instead of scaling a new one every frame).
func _stretch() -> float:
	return get_viewport().get_final_transform().get_scale().x if is_inside_tree() else 1.0


## Our own full-art jokers (no deck's art): the index is 小王 / 大王 written down the corner, the
## picture fills the face: a panel of rays, a crown over a round 王 seal and JOKER down its side —
## black ink on grey for the small joker, red and gold for the big.
func _draw_joker(st: CardStyle, r: Rect2, big: bool, color: Color) -> void:
	var w := r.size.x
	var h := r.size.y
	face_art = &"big_joker" if big else &"small_joker"
	var box := figure_rect()
	var gold := st.wild_frame_color
	var line := maxf(1.0, w * 0.02)
	_draw_joker_panel(box, big, color, gold)
	# Square CJK glyphs: a little smaller than a rank letter, so they clear the picture.
	var fs := int(w * st.rank_size * 0.85)
	_index_strip(st, h * 0.04 + fs * 2.15, false)
	var labels := ["大", "王"] if big else ["小", "王"]
	for i in labels.size():
		_text(_rank_font, labels[i], Vector2(w * 0.04, h * 0.04 + fs * 1.05 * i), fs, color, w * 0.3)
	# Crown: a band with five points, a jewel on each.
	var cx := box.get_center().x
	var cw := box.size.x * 0.8
	var top := box.position.y + box.size.y * 0.1
	var base := box.position.y + box.size.y * 0.42
	var band := box.size.y * 0.08
	var pts := PackedVector2Array()
	pts.append(Vector2(cx - cw / 2.0, base))
	for k in 5:
		var x := cx - cw / 2.0 + cw * k / 4.0
		var y := top if k % 2 == 0 else top + (base - top) * 0.4
		if k == 2:
			y = top - box.size.y * 0.03
		if k > 0:
			pts.append(Vector2(x - cw / 8.0, base - (base - top) * 0.45))
		pts.append(Vector2(x, y))
	pts.append(Vector2(cx + cw / 2.0, base))
	var fill := gold if big else st.face_color
	draw_colored_polygon(pts, fill)
	var outline := pts.duplicate()
	outline.append(pts[0])
	draw_polyline(outline, color, line, true)
	var band_rect := Rect2(Vector2(cx - cw / 2.0, base), Vector2(cw, band))
	draw_rect(band_rect, color if big else fill)
	draw_rect(band_rect, color, false, line)
	for k in 5:
		var x := cx - cw / 2.0 + cw * k / 4.0
		var y := top if k % 2 == 0 else top + (base - top) * 0.4
		if k == 2:
			y = top - box.size.y * 0.03
		draw_circle(Vector2(x, y), w * 0.035, color if big else st.face_color)
		draw_circle(Vector2(x, y), w * 0.035, color, false, line * 0.6, true)
	# Seal: a ring with 王 in it.
	var c := Vector2(cx + box.size.x * 0.08, box.position.y + box.size.y * 0.72)
	var rad := box.size.x * 0.33
	draw_circle(c, rad, color if big else st.face_color)
	draw_circle(c, rad, color, false, line, true)
	draw_circle(c, rad * 0.84, gold if big else color, false, line * 0.6, true)
	_centered(_rank_font, "王", c, int(rad * 1.2), gold if big else color)


## A strip of paper behind the index column, so the index reads over the edge of a full-face picture.
func _index_strip(st: CardStyle, height: float, level_card: bool) -> void:
	var w := size.x
	_round_rect(Rect2(Vector2(w * 0.02, size.y * 0.02), Vector2(w * 0.31, height)), w * 0.04,
			st.level_face_color if level_card else st.face_color)


## The joker's background: a tinted panel with rays from behind the crown, and JOKER written down
## the panel's lower-left, letter under letter, in the face's ink.
func _draw_joker_panel(box: Rect2, big: bool, color: Color, gold: Color) -> void:
	var w := size.x
	var tint := Color(gold, 0.35) if big else Color(0.55, 0.57, 0.6, 0.28)
	_round_rect(box, w * 0.04, tint)
	var centre := Vector2(box.get_center().x, box.position.y + box.size.y * 0.3)
	var reach := box.size.length()
	var ray := Color(color, 0.16 if big else 0.12)
	for k in 16:
		var a := TAU * k / 16.0
		var tip1 := centre + Vector2.from_angle(a - 0.08) * reach
		var tip2 := centre + Vector2.from_angle(a + 0.08) * reach
		var tri := _clip_polygon(PackedVector2Array([centre, tip1, tip2]), box)
		if tri.size() >= 3:
			draw_colored_polygon(tri, ray)
	draw_rect(box, Color(color, 0.55), false, maxf(1.0, w * 0.01))
	var letters := "JOKER"
	var fs := int(box.size.y * 0.075)
	for i in letters.length():
		_centered(_rank_font, letters[i], Vector2(box.position.x + box.size.x * 0.09,
				box.position.y + box.size.y * (0.5 + 0.09 * i)), fs, color)


## A convex polygon cut to a rectangle (Sutherland–Hodgman), for rays that must stay in their box.
static func _clip_polygon(poly: PackedVector2Array, rect: Rect2) -> PackedVector2Array:
	var out := poly
	var edges := [
		[Vector2(1, 0), rect.position.x], [Vector2(-1, 0), -rect.end.x],
		[Vector2(0, 1), rect.position.y], [Vector2(0, -1), -rect.end.y],
	]
	for e: Array in edges:
		var n: Vector2 = e[0]
		var d: float = e[1]
		var inp := out
		out = PackedVector2Array()
		for i in inp.size():
			var a := inp[i]
			var b := inp[(i + 1) % inp.size()]
			var da := n.dot(a) - d
			var db := n.dot(b) - d
			if da >= 0.0:
				out.append(a)
			if (da >= 0.0) != (db >= 0.0):
				out.append(a.lerp(b, da / (da - db)))
		if out.is_empty():
			break
	return out


func _draw_back(st: CardStyle, r: Rect2, radius: float) -> void:
	var w := r.size.x
	_round_rect(r, radius, st.back_color)
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
		draw_multiline(lines, st.back_line_color, maxf(1.0, w * 0.015))
	_round_rect_outline(inner, radius * 0.6, st.back_emblem_color, maxf(1.0, w * 0.025))
	if emblem:
		var c := r.get_center()
		var d := w * 0.22
		draw_colored_polygon(PackedVector2Array([c + Vector2(0, -d * 1.3), c + Vector2(d, 0),
				c + Vector2(0, d * 1.3), c + Vector2(-d, 0)]), st.back_emblem_color)
	_round_rect_outline(r, radius, st.back_edge_color, maxf(1.0, w * 0.012))


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
