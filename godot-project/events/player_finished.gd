class_name PlayerFinishedEvent
extends MatchEvent
## `seat` went out.

var seat: int
## 1 for the first out, up to 4.
var place: int
