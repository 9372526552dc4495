extends Node
## Global signal hub (autoload "EventBus"). Screens ask the app shell for other screens through
## these signals instead of holding references to each other. Only signals that something listens
## to live here (tests/godot/ui/test_boundary.gd checks that each one is emitted and connected).
## Signals are only declared here and emitted by others, hence the "unused_signal" warnings are
## silenced.

## A screen asks to show another screen (e.g. &"menu", &"replays", &"settings", &"quit").
@warning_ignore("unused_signal")
signal screen_requested(screen: StringName)

## The menu (or "Play again") asks for a match.
@warning_ignore("unused_signal")
signal match_requested(config: MatchConfig)

## The replay list asks to watch a saved match (a record name from RecordLibrary.list_records).
@warning_ignore("unused_signal")
signal replay_requested(record: String)
