class_name CardsPlayedEvent
extends MatchEvent
## `seat` played cards.

var seat: int
## A play dictionary (docs/godot-api.md, "Data shapes": type, rank, cards, bomb, …).
var play: Dictionary
