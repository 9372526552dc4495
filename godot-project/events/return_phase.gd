class_name ReturnPhaseEvent
extends MatchEvent
## The tribute's receivers now return one card each.

## The seats that return a card.
var receivers: PackedInt32Array
