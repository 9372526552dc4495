class_name MatchEndedEvent
extends MatchEvent
## The match is over.

## The winning team (0: seats 0 and 2, 1: seats 1 and 3); -1 for a draw.
var winner_team: int
## Why: ace_won, surrender or time_up.
var reason: String
