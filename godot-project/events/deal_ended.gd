class_name DealEndedEvent
extends MatchEvent
## A deal is over (the engine may already be in the next one).

## The seats in the order they went out.
var order: PackedInt32Array
## {winner_team, before, after}: before and after are both teams' levels.
var level_changes: Dictionary
