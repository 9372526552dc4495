class_name HandChangedEvent
extends MatchEvent
## The viewer's hand changed (dealt, a tribute or return, an own play, a new viewer); never for
## spectators.

## Card ids, increasing.
var hand: PackedInt32Array
