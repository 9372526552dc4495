class_name TributePhaseEvent
extends MatchEvent
## The tribute of a deal is due (or resisted); announced again when the player takes the seat back
## from auto-play.

## The seats that owe a tribute.
var payers: PackedInt32Array
## The payers hold both big jokers and pay nothing.
var resisted: bool
