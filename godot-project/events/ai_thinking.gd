class_name AiThinkingEvent
extends MatchEvent
## An AI seat was asked for its action (its answer may be dropped if the state moves on).

var seat: int
