class_name CardReturnedEvent
extends MatchEvent
## A card went back for a tribute.

var from: int
var to: int
## -1 unless the viewer gave or got it.
var card: int
