class_name HistoryRow
extends HBoxContainer
## One row of the history (HistoryPanel): a round's heading, a note (a tribute line), or a seat's
## turn — its portrait, its name and its play as small cards (MiniCards), or a "不出" stamp for a
## pass. The panel reuses its rows as the history changes (no row is built twice for a redraw).

enum Kind { HEADING, NOTE, PLAY, PASS }

const FACE := 30.0
const HEADING_COLOR := Color(0.98, 0.85, 0.45, 0.85)

var kind := Kind.NOTE
## What the row shows now: a redraw of the history sets every row again, and a row whose turn is
## unchanged skips the work (the portrait and the cards are drawn, not cheap under llvmpipe).
var _shown: Array = []
var _face: SeatAvatar
var _text: Label
var _cards: MiniCards
var _stamp: Label


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	add_theme_constant_override(&"separation", 6)
	_face = SeatAvatar.new()
	_face.fixed_size = Vector2(FACE, FACE)
	_face.custom_minimum_size = Vector2(FACE, FACE)
	_face.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	add_child(_face)
	_text = Label.new()
	_text.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_text.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	add_child(_text)
	_cards = MiniCards.new()
	_cards.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	_cards.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	add_child(_cards)
	_stamp = load("res://table/pass_stamp.tscn").instantiate()
	_stamp.rotation = -0.08
	_stamp.add_theme_font_size_override(&"font_size", 15)
	_stamp.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_stamp.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	_stamp.text = "HISTORY_PASS"
	add_child(_stamp)


## A round's heading ("Round 4") or a note; a note wraps to the panel's width.
func set_text_row(text: String, heading: bool) -> void:
	if _unchanged([text, heading]):
		return
	kind = Kind.HEADING if heading else Kind.NOTE
	_face.visible = false
	_cards.visible = false
	_stamp.visible = false
	_set_line(text, true, 15 if heading else 16)
	if heading:
		_text.add_theme_color_override(&"font_color", HEADING_COLOR)
	else:
		_text.remove_theme_color_override(&"font_color")


## A seat's turn: `name` beside its portrait, then `play` as cards, or the stamp when null.
func set_turn(seat: int, face_key: int, ai: bool, name_text: String, play: Play, level: int) -> void:
	if _unchanged([seat, face_key, ai, name_text, play, level, tr("HISTORY_PASS")]):
		return
	kind = Kind.PASS if play == null else Kind.PLAY
	_face.visible = true
	if _face.seat != seat or _face.face_key != face_key or _face.ai != ai:
		_face.seat = seat
		_face.face_key = face_key
		_face.ai = ai
	_set_line(name_text, false, 15)
	_cards.queue_redraw()
	_text.remove_theme_color_override(&"font_color")
	_cards.visible = play != null
	_stamp.visible = play == null
	if play != null:
		_cards.show_play(play, level)
	else:
		_stamp.text = tr("HISTORY_PASS")


## The cards this row shows (empty for a pass, a heading or a note).
func cards() -> PackedInt32Array:
	return _cards.ids.duplicate() if kind == Kind.PLAY else PackedInt32Array()


## Whether the pass stamp is shown.
func stamped() -> bool:
	return kind == Kind.PASS and _stamp.visible


func text() -> String:
	return _text.text


## Whether the row already shows `want` (a row is refilled on every history update; unchanged,
## it keeps its layout); otherwise `want` is remembered as shown.
func _unchanged(want: Array) -> bool:
	if want == _shown:
		return true
	_shown = want
	return false


## The row's text: a note or heading `wraps` across the row, a seat's name stays on one line.
func _set_line(text: String, wraps: bool, font_px: int) -> void:
	_text.text = text
	_text.size_flags_horizontal = Control.SIZE_EXPAND_FILL if wraps else Control.SIZE_FILL
	_text.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART if wraps else TextServer.AUTOWRAP_OFF
	_text.add_theme_font_size_override(&"font_size", font_px)
