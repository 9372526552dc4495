class_name CardsLeftRow
extends HBoxContainer
## One line of the end-of-deal panel: "West still held:" and that seat's cards, small and face up
## (its own card views, not the pool's: the panel frees them when it closes). The look is
## cards_left_row.tscn; the card height and overlap are exported for designers.

## Height of each card in pixels.
@export_range(30.0, 120.0, 1.0) var card_height := 58.0
## How much of each card shows under the next, as a share of its width.
@export_range(0.2, 1.0, 0.01) var step_share := 0.42


## A row built from cards_left_row.tscn for `seat` (named CardsLeft<seat>).
static func create(seat: int, who: String, ids: PackedInt32Array, level: int) -> CardsLeftRow:
	var row: CardsLeftRow = load("res://table/cards_left_row.tscn").instantiate()
	row.name = "CardsLeft%d" % seat
	row.fill(who, ids, level)
	return row


## Writes `who` and lays out `ids` (sorted for the level) face up.
func fill(who: String, ids: PackedInt32Array, level: int) -> void:
	var label: Label = get_node(^"Who")
	label.text = who
	var box: Control = get_node(^"Cards")
	var sorted := Cards.sorted(ids, level)
	var w := card_height / CardView.ASPECT
	var step := w * step_share
	box.custom_minimum_size = Vector2(w + step * (sorted.size() - 1), card_height)
	for i in sorted.size():
		var v: CardView = load("res://hand/card_view.tscn").instantiate()
		v.card_id = sorted[i]
		v.level = level
		v.face_up = true
		v.size = Vector2(w, card_height)
		v.position = Vector2(step * i, 0)
		box.add_child(v)
