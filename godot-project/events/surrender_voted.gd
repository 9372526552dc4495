class_name SurrenderVotedEvent
extends MatchEvent
## `seat` voted on the open surrender proposal.

var seat: int
var accept: bool
