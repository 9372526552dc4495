class_name TributeGivenEvent
extends MatchEvent
## A tribute went from one seat to another.

var from: int
var to: int
## -1 unless the viewer gave or got it (spectators of AI matches see all).
var card: int
