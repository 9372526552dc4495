class_name CardsLeftEvent
extends MatchEvent
## A seat holds few cards (at or below the rules' announce threshold).

var seat: int
var count: int
