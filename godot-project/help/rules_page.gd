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

const COMBO_ROW := preload("res://help/rules_combo.tscn")

@onready var _column: VBoxContainer = %Content


func _ready() -> void:
	var back: Button = %Back
	var guided: Button = %GuidedDeal
	if overlay:
		# Opaque over the table, and above its modal layer.
		z_index = 700
		mouse_filter = Control.MOUSE_FILTER_STOP
		%Backdrop.visible = true
		back.pressed.connect(close)
		guided.free()
	else:
		back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
		guided.pressed.connect(start_guided_deal)
	# The goal and the combinations' title are in the scene; the rows and the other sections
	# (their headings and paragraphs styled like those two) follow them, before the guided deal.
	for combo: Array in COMBOS:
		_combo(combo[0], combo[1], combo[2])
	for section: Array in SECTIONS:
		_add(_column.get_node(^"CombosTitle").duplicate(), section[0])
		_add(_column.get_node(^"Goal").duplicate(), section[1])
	if not overlay:
		_column.move_child(guided, -1)
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


## A section's heading or paragraph: `label` (a copy of the scene's CombosTitle or Goal) saying `key`.
func _add(label: Label, key: String) -> void:
	label.name = key
	label.text = key
	_column.add_child(label)


## One combination (rules_combo.tscn): its name, the example's cards, and a line about it.
func _combo(name_key: String, note_key: String, notation: String) -> void:
	var row: Control = COMBO_ROW.instantiate()
	row.name = name_key.get_slice(".", 1)
	(row.get_node(^"Name") as Label).text = name_key
	(row.get_node(^"Note") as Label).text = note_key
	var ids := PackedInt32Array(FOUR_JOKERS) if notation == "" else Cards.from_notation(notation)
	_fill_cards(row.get_node(^"Cards"), ids)
	_column.add_child(row)


## A fanned row of face-up cards in `box` (their own views, not the table's pool).
func _fill_cards(box: Control, ids: PackedInt32Array) -> void:
	var h := 84.0
	var w := h / CardView.ASPECT
	var step := w * 0.45
	box.custom_minimum_size = Vector2(w + step * 5.0, h)
	for i in ids.size():
		var v := CardView.new()
		v.card_id = ids[i]
		v.level = LEVEL
		v.face_up = true
		v.size = Vector2(w, h)
		v.position = Vector2(step * i, 0)
		v.mouse_filter = Control.MOUSE_FILTER_IGNORE
		box.add_child(v)


## The example cards of a combination (tests).
static func example(name_key: String) -> PackedInt32Array:
	for combo: Array in COMBOS:
		if combo[0] == name_key:
			return PackedInt32Array(FOUR_JOKERS) if combo[2] == "" else Cards.from_notation(combo[2])
	return PackedInt32Array()
