class_name TurnTimedOutEvent
extends MatchEvent
## A human seat's clock ran out and the engine acted for it.

var seat: int
