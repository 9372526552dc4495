class_name ErrorEvent
extends MatchEvent
## A call failed (it also returned the code), or the clock's timeout action was refused.

## One of GuandanEngine's ERR_* codes.
var code: int
var message: String
