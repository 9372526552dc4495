class_name MatchEvent
extends RefCounted
## One GuandanEngine signal as a typed object. Each signal has its class beside this one,
## res://events/<signal>.gd (`cards_played` → CardsPlayedEvent), with one typed field per signal
## argument, by the argument's name (tests/godot/test_events.gd checks them against ClassDB).
##
## Events are made where the data arrives — the MatchController from the engine's signals
## (`from_args`), the ReplayController from a record's event dictionaries (`from_dict`) — and
## checked there, once: an unknown signal, a missing, extra or mistyped argument is refused with
## an error that names it (null is returned). Past that boundary handlers take the class
## (`func _on_cards_played(e: CardsPlayedEvent)`), so the parser checks every field they read.

const DIR := "res://events/"
## The keys of an event dictionary that are not signal arguments.
const OWN_KEYS: Array[String] = ["signal", "restoring", "received_ms"]

## The GuandanEngine signal this event is (e.g. &"cards_played").
var signal_name: StringName
## Part of a restored deal (Continue, or the resume after a crash, announces the deal so far):
## the table draws it at once, without animation, sound or wait.
var restoring := false
## When the table received it (Time.get_ticks_msec()); 0 before it is queued. Online the
## server's break after a deal counts from its end, not from when the table gets to show it.
var received_ms := 0

## Signal name -> its event class (null when there is none), loaded on first use.
static var _kinds: Dictionary[StringName, GDScript] = {}


## The event class of a signal, or null.
static func kind(name: StringName) -> GDScript:
	if not _kinds.has(name):
		var path := DIR + String(name) + ".gd"
		_kinds[name] = load(path) as GDScript if ResourceLoader.exists(path) else null
	return _kinds[name]


## The signal arguments an event class holds, in the signal's order: [{name, type}].
static func fields(script: GDScript) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	for p: Dictionary in script.get_script_property_list():
		if p.usage & PROPERTY_USAGE_SCRIPT_VARIABLE and not String(p.name) in OWN_KEYS and p.name != &"signal_name":
			out.append({name = String(p.name), type = int(p.type)})
	return out


## The event of engine signal `name` emitted with `args` (positional, the signal's order).
static func from_args(name: StringName, args: Array) -> MatchEvent:
	var script := kind(name)
	if script == null:
		return _refuse(name, "no event class %s%s.gd" % [DIR, name])
	var want := fields(script)
	if want.size() != args.size():
		return _refuse(name, "%d arguments, the event class has %d" % [args.size(), want.size()])
	var values := {}
	for i in want.size():
		values[want[i].name] = args[i]
	return _make(name, script, want, values)


## The event of a dictionary `{signal, <argument name>: value, …}` (a record's events, tests),
## optionally with `restoring` and `received_ms`.
static func from_dict(d: Dictionary) -> MatchEvent:
	var name := StringName(str(d.get("signal", "")))
	var script := kind(name)
	if script == null:
		return _refuse(name, "no such engine signal")
	var want := fields(script)
	var names: Array[String] = []
	for f in want:
		names.append(f.name)
	for key: Variant in d:
		if not String(key) in names and not String(key) in OWN_KEYS:
			return _refuse(name, "unknown argument %s" % key)
	var values := {}
	for f in want:
		if not d.has(f.name) and not d.has(StringName(f.name)):
			return _refuse(name, "argument %s is missing" % f.name)
		values[f.name] = d[f.name] if d.has(f.name) else d[StringName(f.name)]
	var e := _make(name, script, want, values)
	if e != null:
		e.restoring = bool(d.get("restoring", false))
		e.received_ms = int(d.get("received_ms", 0))
	return e


static func _make(name: StringName, script: GDScript, want: Array[Dictionary], values: Dictionary) -> MatchEvent:
	var e: MatchEvent = script.new()
	e.signal_name = name
	for f in want:
		var v: Variant = _converted(values[f.name], f.type)
		if v == null:
			return _refuse(name, "argument %s is %s, not %s" % [f.name, type_string(typeof(values[f.name])), type_string(f.type)])
		e.set(f.name, v)
	return e


## `value` as a field of type `type`, or null when it is not one: exact types pass; an int and
## a whole float stand for each other, a String and a StringName too, and an array of ints (or a
## PackedInt64Array) for a PackedInt32Array.
static func _converted(value: Variant, type: int) -> Variant:
	var have := typeof(value)
	if have == type or type == TYPE_NIL:
		return value
	match type:
		TYPE_FLOAT when have == TYPE_INT:
			return float(value)
		TYPE_INT when have == TYPE_FLOAT and float(value) == floorf(value):
			return int(value)
		TYPE_STRING when have == TYPE_STRING_NAME:
			return String(value)
		TYPE_STRING_NAME when have == TYPE_STRING:
			return StringName(value)
		TYPE_PACKED_INT32_ARRAY when have == TYPE_PACKED_INT64_ARRAY:
			return PackedInt32Array(value)
		TYPE_PACKED_INT32_ARRAY when have == TYPE_ARRAY:
			for x: Variant in value:
				if typeof(x) != TYPE_INT:
					return null
			return PackedInt32Array(value)
	return null


static func _refuse(name: StringName, why: String) -> MatchEvent:
	push_error("MatchEvent: refused %s: %s" % [name if name != &"" else &"an event without a signal", why])
	return null
