class_name CrashedEvent
extends MatchEvent
## A fatal error inside the engine was caught: the match is stopped (resume_last_valid plays on
## from the last valid state).

var message: String
## The crash report's path (user://crash/crash_<ms>.json).
var report: String
