class_name AiDecidedEvent
extends MatchEvent
## An AI seat has chosen its action.

var seat: int
## How long it thought.
var elapsed_ms: float
## The hard limit cut it short and the easy level's choice is played.
var fell_back: bool
