class_name MatchEvents
extends RefCounted
## Makes the typed match events (res://events/<signal>.gd, one class per GuandanEngine signal) where
## the data arrives — the MatchController from the engine's signals (`from_args`), the
## ReplayController from a record's events (`from_dict`) — and checks them there, once, against
## the signal as GuandanEngine declares it (ClassDB): an unknown signal, a missing, extra or
## mistyped argument is refused with an error that names it (null is returned). Each event is
## then built field by field below, so a renamed or misspelled field is a parse error here, and
## handlers take the class (`func _on_cards_played(e: CardsPlayedEvent)`).

## Signal name -> its event class (tests check every GuandanEngine signal has one).
const KINDS: Dictionary[StringName, GDScript] = {
	&"ai_decided": preload("res://events/ai_decided.gd"),
	&"ai_thinking": preload("res://events/ai_thinking.gd"),
	&"card_returned": preload("res://events/card_returned.gd"),
	&"cards_left": preload("res://events/cards_left.gd"),
	&"cards_played": preload("res://events/cards_played.gd"),
	&"controller_changed": preload("res://events/controller_changed.gd"),
	&"crashed": preload("res://events/crashed.gd"),
	&"deal_ended": preload("res://events/deal_ended.gd"),
	&"deal_started": preload("res://events/deal_started.gd"),
	&"error": preload("res://events/error.gd"),
	&"hand_changed": preload("res://events/hand_changed.gd"),
	&"match_ended": preload("res://events/match_ended.gd"),
	&"match_started": preload("res://events/match_started.gd"),
	&"partner_takes_lead": preload("res://events/partner_takes_lead.gd"),
	&"passed": preload("res://events/passed.gd"),
	&"player_finished": preload("res://events/player_finished.gd"),
	&"return_phase": preload("res://events/return_phase.gd"),
	&"surrender_proposed": preload("res://events/surrender_proposed.gd"),
	&"surrender_voted": preload("res://events/surrender_voted.gd"),
	&"table_cleared": preload("res://events/table_cleared.gd"),
	&"tribute_given": preload("res://events/tribute_given.gd"),
	&"tribute_phase": preload("res://events/tribute_phase.gd"),
	&"turn_started": preload("res://events/turn_started.gd"),
	&"turn_timed_out": preload("res://events/turn_timed_out.gd"),
	&"viewer_changed": preload("res://events/viewer_changed.gd"),
}
## The keys of an event dictionary that are not signal arguments.
const OWN_KEYS: Array[String] = ["signal", "restoring", "received_ms"]

## Signal name -> its declared arguments [{name, type, class_name}], read once from ClassDB.
static var _signals: Dictionary[StringName, Array] = {}


## The event of engine signal `name` emitted with `args` (positional, the signal's order).
static func from_args(name: StringName, args: Array) -> MatchEvent:
	var want := _declared(name)
	if want.is_empty() and not _signals.has(name):
		return _refuse(name, "no such engine signal")
	if not KINDS.has(name):
		return _refuse(name, "no event class res://events/%s.gd" % name)
	if want.size() != args.size():
		return _refuse(name, "%d arguments, the signal has %d" % [args.size(), want.size()])
	var a: Array = []
	for i in want.size():
		var v: Variant = _converted(args[i], want[i])
		if v == null:
			return _refuse(name, "argument %s is %s, not %s" % [want[i].name, type_string(typeof(args[i])),
				want[i].class_name if want[i].class_name != &"" else type_string(want[i].type)])
		a.append(v)
	var e := _build(name, a)
	e.signal_name = name
	return e


## The event of a dictionary `{signal, <argument name>: value, …}` (a record's events, tests),
## optionally with `restoring` and `received_ms`.
static func from_dict(d: Dictionary) -> MatchEvent:
	var name := StringName(str(d["signal"])) if d.has("signal") else &""
	var want := _declared(name)
	if not _signals.has(name):
		return _refuse(name, "no such engine signal")
	var names: Array[String] = []
	for arg: Dictionary in want:
		names.append(String(arg.name))
	for key: Variant in d:
		if not String(key) in names and not String(key) in OWN_KEYS:
			return _refuse(name, "unknown argument %s" % key)
	var args: Array = []
	for n in names:
		if not d.has(n) and not d.has(StringName(n)):
			return _refuse(name, "argument %s is missing" % n)
		args.append(d[n] if d.has(n) else d[StringName(n)])
	var e := from_args(name, args)
	if e != null:
		e.restoring = bool(d["restoring"]) if d.has("restoring") else false
		e.received_ms = int(d["received_ms"]) if d.has("received_ms") else 0
	return e


## The declared arguments of GuandanEngine's signal `name` ([] when there is no such signal:
## then `_signals` does not have it).
static func _declared(name: StringName) -> Array:
	if _signals.is_empty():
		for s: Dictionary in ClassDB.class_get_signal_list(&"GuandanEngine", true):
			_signals[StringName(s.name)] = s.args
	return _signals.get(name, [])


## `value` as an argument declared `arg`, or null when it is not one: exact types pass (an object
## of the declared class or a subclass; null for an object); an int and a whole float stand for
## each other, a String and a StringName too, and an array of ints (or a PackedInt64Array) for a
## PackedInt32Array — the shapes JSON and tests write.
static func _converted(value: Variant, arg: Dictionary) -> Variant:
	var type := int(arg.type)
	var have := typeof(value)
	if type == TYPE_OBJECT:
		var cls := StringName(arg.class_name)
		return value if have == TYPE_OBJECT and value != null and ClassDB.is_parent_class((value as Object).get_class(), cls) else null
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


## The event of signal `name` from its checked arguments `a`, field by field.
static func _build(name: StringName, a: Array) -> MatchEvent:
	match name:
		&"ai_decided":
			var e := AiDecidedEvent.new()
			e.seat = a[0]
			e.elapsed_ms = a[1]
			e.fell_back = a[2]
			return e
		&"ai_thinking":
			var e := AiThinkingEvent.new()
			e.seat = a[0]
			return e
		&"card_returned":
			var e := CardReturnedEvent.new()
			e.from = a[0]
			e.to = a[1]
			e.card = a[2]
			return e
		&"cards_left":
			var e := CardsLeftEvent.new()
			e.seat = a[0]
			e.count = a[1]
			return e
		&"cards_played":
			var e := CardsPlayedEvent.new()
			e.seat = a[0]
			e.play = a[1]
			return e
		&"controller_changed":
			var e := ControllerChangedEvent.new()
			e.seat = a[0]
			e.ai = a[1]
			return e
		&"crashed":
			var e := CrashedEvent.new()
			e.message = a[0]
			e.report = a[1]
			return e
		&"deal_ended":
			var e := DealEndedEvent.new()
			e.order = a[0]
			e.level_changes = a[1]
			return e
		&"deal_started":
			var e := DealStartedEvent.new()
			e.deal_no = a[0]
			e.level = a[1]
			e.declarer = a[2]
			return e
		&"error":
			var e := ErrorEvent.new()
			e.code = a[0]
			e.message = a[1]
			return e
		&"hand_changed":
			var e := HandChangedEvent.new()
			e.hand = a[0]
			return e
		&"match_ended":
			var e := MatchEndedEvent.new()
			e.winner_team = a[0]
			e.reason = a[1]
			return e
		&"match_started":
			var e := MatchStartedEvent.new()
			e.seed = a[0]
			e.local_seat = a[1]
			return e
		&"partner_takes_lead":
			var e := PartnerTakesLeadEvent.new()
			e.seat = a[0]
			return e
		&"passed":
			var e := PassedEvent.new()
			e.seat = a[0]
			return e
		&"player_finished":
			var e := PlayerFinishedEvent.new()
			e.seat = a[0]
			e.place = a[1]
			return e
		&"return_phase":
			var e := ReturnPhaseEvent.new()
			e.receivers = a[0]
			return e
		&"surrender_proposed":
			var e := SurrenderProposedEvent.new()
			e.seat = a[0]
			return e
		&"surrender_voted":
			var e := SurrenderVotedEvent.new()
			e.seat = a[0]
			e.accept = a[1]
			return e
		&"table_cleared":
			var e := TableClearedEvent.new()
			e.leader = a[0]
			return e
		&"tribute_given":
			var e := TributeGivenEvent.new()
			e.from = a[0]
			e.to = a[1]
			e.card = a[2]
			return e
		&"tribute_phase":
			var e := TributePhaseEvent.new()
			e.payers = a[0]
			e.resisted = a[1]
			return e
		&"turn_started":
			var e := TurnStartedEvent.new()
			e.seat = a[0]
			e.can_pass = a[1]
			e.time_limit = a[2]
			return e
		&"turn_timed_out":
			var e := TurnTimedOutEvent.new()
			e.seat = a[0]
			return e
		&"viewer_changed":
			var e := ViewerChangedEvent.new()
			e.seat = a[0]
			return e
	return null


static func _refuse(name: StringName, why: String) -> MatchEvent:
	push_error("MatchEvent: refused %s: %s" % [name if name != &"" else &"an event without a signal", why])
	return null
