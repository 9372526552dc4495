class_name TableClearedEvent
extends MatchEvent
## Everyone passed after a play: the trick is over.

## The seat that leads the next trick.
var leader: int
