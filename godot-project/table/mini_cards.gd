class_name MiniCards
extends Control
## A play as a row of small card faces (the history's rows): rank and suit in the card's ink on
## its face, level cards on the warm face, a wild in a gold frame with the rank it stands for and
## its badge, as the hand draws them (CardStyle.current()). Drawn, not built of CardViews: a long
## history costs one node per row.

## Overlap: each card shows this share of its width before the next one.
const STEP := 0.56

## The cards in reading order (PlayText.arranged: a wild beside the cards it completes) and the
## rank each wild stands for (0: itself).
var ids := PackedInt32Array()
var stands := PackedInt32Array()
var level := 2
var card_height := 34.0:
	set(v):
		card_height = v
		_resize()


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE


## Shows `play` (at the deal's `level`).
func show_play(play: Play, at_level: int) -> void:
	level = at_level
	ids = PackedInt32Array()
	stands = PackedInt32Array()
	for c: Array in PlayText.arranged(play, at_level):
		ids.append(int(c[0]))
		stands.append(int(c[1]))
	_resize()
	queue_redraw()


func card_size() -> Vector2:
	return Vector2(roundf(card_height / CardView.ASPECT), card_height)


## Wants the whole row, needs two cards' width: a long play in a narrow panel overlaps more.
func _resize() -> void:
	var sz := card_size()
	custom_minimum_size = Vector2(sz.x * (1.0 + STEP * minf(ids.size() - 1, 1.0)) if not ids.is_empty() else 0.0, sz.y)


## The width the cards are drawn over now (at most the usual overlap's).
func drawn_width() -> float:
	var sz := card_size()
	return 0.0 if ids.is_empty() else sz.x + _step() * (ids.size() - 1)


func _step() -> float:
	var w := card_size().x
	if ids.size() < 2:
		return w * STEP
	return clampf((size.x - w) / (ids.size() - 1), w * 0.18, w * STEP)


func _draw() -> void:
	var st := CardStyle.current()
	var sz := card_size()
	var font := get_theme_default_font()
	var fs := int(sz.y * 0.36)
	var y0 := (size.y - sz.y) / 2.0
	var step := _step()
	for i in ids.size():
		var id := ids[i]
		var r := Rect2(Vector2(i * step, y0), sz)
		var wild := Cards.is_wild(id, level)
		draw_rect(r, st.level_face_color if Cards.is_level_card(id, level) else st.face_color)
		draw_rect(r.grow(-1.0) if wild else r, st.wild_frame_color if wild else st.border_color, false, 2.0 if wild else 1.0)
		var ink := st.ink(id)
		var label := ""
		var glyph := ""
		if Cards.is_joker(id):
			label = "JK" if Cards.value(id) == Cards.BIG_JOKER else "jk"
		else:
			label = Cards.rank_label(stands[i] if wild and stands[i] > 0 else Cards.rank(id))
			glyph = Cards.SUIT_GLYPHS[int(Cards.suit(id))]
		var lfs := fs if label.length() == 1 else int(fs * 0.8)
		draw_string(font, r.position + Vector2(2.0, font.get_ascent(lfs) + 1.0), label, HORIZONTAL_ALIGNMENT_LEFT, -1, lfs, ink)
		if glyph != "":
			draw_string(font, r.position + Vector2(2.0, font.get_ascent(fs) + fs + 1.0), glyph, HORIZONTAL_ALIGNMENT_LEFT, -1, fs, ink)
		if wild:
			var c := r.position + Vector2(sz.x * 0.3, sz.y * 0.82)
			draw_circle(c, sz.x * 0.2, st.wild_frame_color)
			var bfs := int(sz.x * 0.3)
			var badge := tr("CARD_WILD_BADGE")
			var w := font.get_string_size(badge, HORIZONTAL_ALIGNMENT_LEFT, -1, bfs).x
			draw_string(font, c + Vector2(-w / 2.0, font.get_ascent(bfs) / 2.5), badge, HORIZONTAL_ALIGNMENT_LEFT, -1, bfs, st.wild_badge_text_color)


func _notification(what: int) -> void:
	if what == NOTIFICATION_RESIZED:
		queue_redraw()
