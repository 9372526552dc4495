class_name ViewerChangedEvent
extends MatchEvent
## Hot-seat: the engine now shows and acts for another human seat (its hand_changed follows).

## The new viewer.
var seat: int
