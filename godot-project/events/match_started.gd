class_name MatchStartedEvent
extends MatchEvent
## A match began, or a match's position is announced again (Continue, a resume, online a
## reconnect): the deal so far follows.

## The match's seed (the same seed deals the same cards).
var seed: int
## The viewer's seat; -1 for an all-seeing spectator.
var local_seat: int
