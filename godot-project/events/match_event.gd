class_name MatchEvent
extends RefCounted
## One GuandanEngine signal as a typed object. Each signal has its class beside this one,
## res://events/<signal>.gd (`cards_played` → CardsPlayedEvent), with one typed field per signal
## argument, by the argument's name (tests/godot/test_events.gd checks them against ClassDB).
## MatchEvents makes them, field by field, and checks what they are made of; handlers take the
## class (`func _on_cards_played(e: CardsPlayedEvent)`), so the parser checks every field they read.

## The GuandanEngine signal this event is (e.g. &"cards_played").
var signal_name: StringName
## Part of a restored deal (Continue, or the resume after a crash, announces the deal so far):
## the table draws it at once, without animation, sound or wait.
var restoring := false
## When the table received it (Time.get_ticks_msec()); 0 before it is queued. Online the
## server's break after a deal counts from its end, not from when the table gets to show it.
var received_ms := 0
