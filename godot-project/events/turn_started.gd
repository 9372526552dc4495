class_name TurnStartedEvent
extends MatchEvent
## `seat` is to play.

var seat: int
## It follows (false: it leads and may not pass).
var can_pass: bool
## Seconds it has; 0 = no clock (AI seats, timer off, unlimited rules).
var time_limit: float
