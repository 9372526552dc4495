class_name ControllerChangedEvent
extends MatchEvent
## Auto-play: the AI took `seat` over, or gave it back.

var seat: int
## True while the AI plays the seat.
var ai: bool
