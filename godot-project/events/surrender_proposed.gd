class_name SurrenderProposedEvent
extends MatchEvent
## `seat` proposed that its team surrenders (its partner votes; online the opponents may veto).

var seat: int
