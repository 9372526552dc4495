class_name CardsPlayedEvent
extends MatchEvent
## `seat` played cards.

var seat: int
## What was played (kind, rank, cards, bomb, …).
var play: Play
