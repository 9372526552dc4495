extends Control
## The rules in the game: every combination with card pictures, the order of bombs, leading and
## following, tribute and return, levels and the wild card. A screen of its own (from the menu)
## or, with `overlay`, a page over the table (from the pause menu) that Back or Esc closes.
## Also offers the guided first deal. The examples are played at level 2 (♥2 is wild).

## Shown over the table: Back frees the page instead of switching screens.
var overlay := false

## [name key, note key, cards in notation] per combination, weakest kinds first.
const COMBOS: Array = [
	["play.single", "RULES_NOTE_SINGLE", "SK"],
	["play.pair", "RULES_NOTE_PAIR", "H9 C9"],
	["play.trips", "RULES_NOTE_TRIPS", "S7 H7 D7"],
	["play.three_with_two", "RULES_NOTE_FULL_HOUSE", "S7 H7 D7 C4 D4"],
	["play.straight", "RULES_NOTE_STRAIGHT", "S5 H6 C7 D8 S9"],
	["play.three_pair", "RULES_NOTE_THREE_PAIR", "S5 H5 C6 D6 S7 H7"],
	["play.two_trips", "RULES_NOTE_TWO_TRIPS", "S9 H9 D9 CT DT ST"],
	["play.bomb", "RULES_NOTE_BOMB", "S8 H8 C8 D8"],
	["play.straight_flush", "RULES_NOTE_STRAIGHT_FLUSH", "S9 ST SJ SQ SK"],
	["play.four_kings", "RULES_NOTE_FOUR_KINGS", ""],
]
## Four jokers by id (the notation has no joker letters).
const FOUR_JOKERS := [52, 106, 53, 107]
const LEVEL := 2
## Text sections after the combinations: [title key, text key].
const SECTIONS: Array = [
	["RULES_BOMBS_TITLE", "RULES_BOMBS"],
	["RULES_PLAY_TITLE", "RULES_PLAY"],
	["RULES_WILD_TITLE", "RULES_WILD"],
	["RULES_LEVELS_TITLE", "RULES_LEVELS"],
	["RULES_TRIBUTE_TITLE", "RULES_TRIBUTE"],
]

var _column: VBoxContainer


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	if overlay:
		# Opaque over the table, and above its modal layer.
		z_index = 700
		mouse_filter = Control.MOUSE_FILTER_STOP
		var bg := ColorRect.new()
		bg.color = Color(0.04, 0.12, 0.08, 1.0)
		bg.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
		add_child(bg)
	var page := UiKit.page(self, "RULES_TITLE", &"menu")
	var scroll: ScrollContainer = page[1]
	var back: Button = page[2]
	if overlay:
		for c in back.pressed.get_connections():
			back.pressed.disconnect(c.callable)
		back.pressed.connect(close)
	_column = UiKit.vbox(10)
	_column.name = "Content"
	_column.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(_column)
	_paragraph("RULES_GOAL")
	_heading("RULES_COMBOS_TITLE")
	for combo: Array in COMBOS:
		_combo(combo[0], combo[1], combo[2])
	for section: Array in SECTIONS:
		_heading(section[0])
		_paragraph(section[1])
	if not overlay:
		var guided := UiKit.button("BTN_GUIDED_DEAL", start_guided_deal, 22, Vector2(320, 52))
		guided.name = "GuidedDeal"
		guided.size_flags_horizontal = Control.SIZE_SHRINK_BEGIN
		_column.add_child(guided)
	back.grab_focus.call_deferred()


## Starts the guided first deal (a fixed seeded training deal with a coach).
func start_guided_deal() -> void:
	EventBus.match_requested.emit(GuidedDeal.config())


func close() -> void:
	queue_free()


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if overlay and key != null and key.pressed and not key.echo and key.keycode == KEY_ESCAPE:
		get_viewport().set_input_as_handled()
		close()


func _heading(key: String) -> void:
	var l := UiKit.label(key, 28, Color(0.98, 0.85, 0.45))
	_column.add_child(l)


func _paragraph(key: String) -> void:
	var l := UiKit.label(key, 19)
	l.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	l.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_column.add_child(l)


## One combination: its name, the example's cards, and a line about it.
func _combo(name_key: String, note_key: String, notation: String) -> void:
	var row := UiKit.hbox(16)
	row.name = name_key.get_slice(".", 1)
	var name := UiKit.label(name_key, 22)
	name.custom_minimum_size = Vector2(150, 0)
	row.add_child(name)
	var ids := PackedInt32Array(FOUR_JOKERS) if notation == "" else Cards.from_notation(notation)
	row.add_child(_cards(ids))
	var note := UiKit.label(note_key, 17, Color(0.9, 0.95, 0.9))
	note.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	note.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	note.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	row.add_child(note)
	_column.add_child(row)


## A fanned row of face-up cards (their own views, not the table's pool).
func _cards(ids: PackedInt32Array) -> Control:
	var h := 84.0
	var w := h / CardView.ASPECT
	var step := w * 0.45
	var box := Control.new()
	box.name = "Cards"
	box.custom_minimum_size = Vector2(w + step * 5.0, h)
	box.mouse_filter = Control.MOUSE_FILTER_IGNORE
	for i in ids.size():
		var v := CardView.new()
		v.card_id = ids[i]
		v.level = LEVEL
		v.face_up = true
		v.size = Vector2(w, h)
		v.position = Vector2(step * i, 0)
		v.mouse_filter = Control.MOUSE_FILTER_IGNORE
		box.add_child(v)
	return box


## The example cards of a combination (tests).
static func example(name_key: String) -> PackedInt32Array:
	for combo: Array in COMBOS:
		if combo[0] == name_key:
			return PackedInt32Array(FOUR_JOKERS) if combo[2] == "" else Cards.from_notation(combo[2])
	return PackedInt32Array()
