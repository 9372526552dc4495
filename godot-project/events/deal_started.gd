class_name DealStartedEvent
extends MatchEvent
## A deal begins (its hands follow as hand_changed).

## 0 for the match's first deal.
var deal_no: int
## The rank played in this deal (2-14); its hearts are wild.
var level: int
## The seat whose team's level is played; -1 in the first deal.
var declarer: int
