class_name PassedEvent
extends MatchEvent
## `seat` passed.

var seat: int
