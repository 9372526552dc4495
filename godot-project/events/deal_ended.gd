class_name DealEndedEvent
extends MatchEvent
## A deal is over (the engine may already be in the next one).

## The seats in the order they went out.
var order: PackedInt32Array
## The deal's winner and both teams' levels before and after.
var level_changes: LevelChange
