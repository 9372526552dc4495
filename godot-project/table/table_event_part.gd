class_name TableEventPart
extends RefCounted
## One concern of the table's event handling (DealStartEvents, TributeEvents, TrickEvents,
## ResultEvents): its handlers (`on_<signal>`, each taking its signal's typed event; TableEvents
## lists them in `handlers`) and the state only they need. The queue, the waits, sounds, banners and the shake are TableEvents', reached here.

## The queue this part shows events for.
var events: TableEvents
## The table (table.gd).
var table: Table:
	get:
		return events.table
## A restored deal is drawn: at once, without animation, wait, sound or banner.
var instant: bool:
	get:
		return events.instant
## The table is leaving the tree: a handler that awaited stops at its next check.
var closing: bool:
	get:
		return events.closing


func _init(queue: TableEvents) -> void:
	events = queue


## Waits `seconds` (TableEvents.wait: shortened while catching up, not at all while restoring).
func wait(seconds: float) -> void:
	await events.wait(seconds)


## A sound, except while a restored deal is drawn.
func sfx(sound: StringName) -> void:
	events.sfx(sound)


## A banner, except while a restored deal is drawn.
func announce(text: String, hold_s: float) -> void:
	events.announce(text, hold_s)
