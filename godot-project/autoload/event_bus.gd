extends Node
## Global signal hub (autoload "EventBus"). Screens, the table and the audio/FX layers talk
## through these signals instead of holding references to each other.
##
## Conventions: seats are 0..3 counter-clockwise starting with the local player (0 and 2 are a
## team, 1 and 3 the other); cards are card ids 0..107 as used by GuandanEngine; seeds are the
## match seeds passed to GuandanEngine.deal(). Signals are only declared here and emitted by
## others, hence the "unused_signal" warnings are silenced.

## A match is about to start with this seed.
@warning_ignore("unused_signal")
signal match_started(seed: int)

## The cards of one deal are known: four hands of 27 card ids, indexed by seat.
@warning_ignore("unused_signal")
signal hands_dealt(seed: int, hands: Array[PackedInt32Array])

## A seat played cards (ids) on the table.
@warning_ignore("unused_signal")
signal cards_played(seat: int, cards: PackedInt32Array)

## A seat passed instead of playing.
@warning_ignore("unused_signal")
signal seat_passed(seat: int)

## A deal ended; seats in the order they went out.
@warning_ignore("unused_signal")
signal deal_finished(finish_order: PackedInt32Array)

## A screen asks to show another screen (e.g. &"menu", &"table", &"settings").
@warning_ignore("unused_signal")
signal screen_requested(screen: StringName)

## The UI language changed (a TranslationServer locale such as "en" or "zh_CN").
@warning_ignore("unused_signal")
signal locale_changed(locale: String)

## The menu asks for a match. config: {mode: &"training" | &"match", rules: "competition" |
## "huaian" | "house", ai_levels: [int, int, int] (seats 1..3, 1 easy .. 3 hard), seed: int
## (optional; random when missing)}.
@warning_ignore("unused_signal")
signal match_requested(config: Dictionary)

## The replay list asks to watch a saved match (a record name from ReplayRecorder's list).
@warning_ignore("unused_signal")
signal replay_requested(record: String)

## A running screen needs input blocked (true) or released (false): animations, transitions.
@warning_ignore("unused_signal")
signal input_lock_changed(locked: bool)
