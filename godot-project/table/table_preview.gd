@tool
extends Control
## What the table looks like mid-deal, for the Godot editor only: a sample hand along the bottom
## and sample plays beside the seats, drawn with card_view.tscn (so the CardStyle applies). It
## never starts the engine, and at run time it removes itself at once: the real hand and plays
## come from HandView and PlayZone. The sample cards are not owned by the scene, so saving the
## scene in the editor never stores them.

const CARD_SCENE := preload("res://hand/card_view.tscn")
## A sample hand (notation, see Cards): 27 cards, level 2, with a wild (H2), jokers and a bomb.
const SAMPLE_HAND: Array[String] = ["HR", "SB", "H2", "S2", "SA", "HA", "DK", "SK", "HQ", "CQ",
	"DJ", "SJ", "HT", "CT", "S9", "H9", "D8", "C8", "S7", "H7", "C7", "D7", "S6", "C5", "H4",
	"D3", "S3"]
## Sample plays by seat (1 east, 2 north, 3 west; the player's own is below its badge), with the
## badge they sit beside.
const SAMPLE_PLAYS := {
	2: ["SK", "HK"],
	3: ["S5", "H6", "C7", "D8", "S9"],
	1: ["DT", "CT", "ST"],
	0: ["SQ", "HQ", "CQ", "DQ"],
}
## Sample cards left per seat (the player's own badge shows none).
const SAMPLE_COUNTS: Array[int] = [27, 12, 5, 20]
const HAND_CARD_H := 150.0
const PLAY_CARD_H := 78.0


func _ready() -> void:
	if not Engine.is_editor_hint():
		queue_free()
		return
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_build()
	resized.connect(_place)
	_place()
	# One line in the editor's output: the editor test checks the preview really ran.
	print("EditorPreview: %d sample cards in the hand, %d sample plays" % [SAMPLE_HAND.size(), SAMPLE_PLAYS.size()])


func _build() -> void:
	# Each badge says which seat it is (the badge scene's texts are one seat's). These nodes belong
	# to the badge instances, not to table.tscn, so the editor never saves the sample texts.
	var frame := get_parent()
	for seat in 4:
		var badge: Node = frame.get_node(NodePath("Seat%d" % seat))
		badge.get_node(^"%SeatName").text = "SEAT_%d" % seat
		badge.get_node(^"%Sub").text = "TEAM_US" if seat % 2 == 0 else "TEAM_THEM"
		badge.get_node(^"%Count").text = str(SAMPLE_COUNTS[seat])
	for i in SAMPLE_HAND.size():
		_add_card("Hand%d" % i, SAMPLE_HAND[i])
	for seat: int in SAMPLE_PLAYS:
		var play: Array = SAMPLE_PLAYS[seat]
		for i in play.size():
			_add_card("Play%d_%d" % [seat, i], play[i])


func _add_card(node_name: String, notation: String) -> void:
	var card: CardView = CARD_SCENE.instantiate()
	card.name = node_name
	card.notation = notation
	add_child(card)  # no owner: never saved into table.tscn


## Lays the samples out for the current size: the hand fills the bottom band under the action
## bar, each play sits right of its seat's badge (left of it for east).
func _place() -> void:
	var frame := get_parent() as Control
	var w := size.x
	var cw := HAND_CARD_H / CardView.ASPECT
	var step := minf(cw * 0.45, (w - cw) / float(SAMPLE_HAND.size() - 1))
	var x0 := (w - (step * (SAMPLE_HAND.size() - 1) + cw)) / 2.0
	var y := size.y - HAND_CARD_H - 4.0
	for i in SAMPLE_HAND.size():
		_put(get_node(NodePath("Hand%d" % i)), Vector2(x0 + step * i, y), HAND_CARD_H)
	var pw := PLAY_CARD_H / CardView.ASPECT
	for seat: int in SAMPLE_PLAYS:
		var badge: Control = frame.get_node(NodePath("Seat%d" % seat))
		var count: int = SAMPLE_PLAYS[seat].size()
		var span := pw * 0.5 * (count - 1) + pw
		var px := badge.position.x + badge.size.x + 12.0
		if seat == 1:
			px = badge.position.x - 12.0 - span
		var py := badge.position.y + (badge.size.y - PLAY_CARD_H) / 2.0
		for i in count:
			_put(get_node(NodePath("Play%d_%d" % [seat, i])), Vector2(px + pw * 0.5 * i, py), PLAY_CARD_H)


func _put(card: CardView, at: Vector2, height: float) -> void:
	card.position = at
	card.size = Vector2(height / CardView.ASPECT, height)
