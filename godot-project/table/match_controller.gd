class_name MatchController
extends Node
## The only script that talks to the Rust GuandanEngine / MoveAdvisor / ReplayRecorder
## (GDExtension, see docs/godot-api.md). The table sees a match as a stream of event
## dictionaries — `{signal: &"cards_played", seat: 1, play: {...}}`, the engine's signal names
## and argument names — plus a few calls. Replays produce the same dictionaries, so the table
## draws a live match and a replay with the same code.
##
## Engine classes are created through ClassDB so this script still loads without the extension
## (the menu then says so instead of failing to parse).

## One engine signal, as `{signal: StringName, <argument name>: value, …}`.
signal event_received(event: Dictionary)

## Argument names of every engine signal, in order (mirrors GuandanEngine's signals).
const SIGNALS := {
	&"match_started": ["seed", "local_seat"],
	&"deal_started": ["deal_no", "level", "declarer"],
	&"hand_changed": ["hand"],
	&"tribute_phase": ["payers", "resisted"],
	&"tribute_given": ["from", "to", "card"],
	&"return_phase": ["receivers"],
	&"card_returned": ["from", "to", "card"],
	&"turn_started": ["seat", "can_pass", "time_limit"],
	&"cards_played": ["seat", "play"],
	&"passed": ["seat"],
	&"table_cleared": ["leader"],
	&"partner_takes_lead": ["seat"],
	&"cards_left": ["seat", "count"],
	&"player_finished": ["seat", "place"],
	&"deal_ended": ["order", "level_changes"],
	&"surrender_proposed": ["seat"],
	&"surrender_voted": ["seat", "accept"],
	&"match_ended": ["winner_team", "reason"],
	&"ai_thinking": ["seat"],
	&"ai_decided": ["seat", "elapsed_ms", "fell_back"],
	&"turn_timed_out": ["seat"],
	&"error": ["code", "message"],
}
const PHASE_TRIBUTE := 1
const PHASE_RETURN := 2
const PHASE_PLAY := 3
const PHASE_MATCH_OVER := 4

## The match's configuration as started (see EventBus.match_requested).
var config := {}
var engine: Node  # GuandanEngine
var advisor: RefCounted  # MoveAdvisor
## The replay record of this match (user://records/<name>.jsonl), saved at the end of each deal
## and when the player leaves; one file per match.
var record_name := ""


static func available() -> bool:
	return ClassDB.class_exists(&"GuandanEngine")


static func engine_version() -> String:
	if not available():
		return ""
	var e: Node = ClassDB.instantiate(&"GuandanEngine")
	var v: String = e.version()
	e.free()
	return TranslationServer.translate("MAIN_ENGINE_VERSION").format({version = v})


func _exit_tree() -> void:
	if engine != null and engine.has_match():
		engine.stop_match()


## Starts a match. config: {mode: &"training" | &"match" | &"watch", rules: preset name,
## ai_levels: [e, n, w] (1..3), seed: int (optional), all_ai: bool (a match of four AIs that the
## table only watches), human_seat_level: int (AI level for seat 0 when all_ai),
## ai_min_think_ms: int (pace of the AIs; default 400), turn_timer: bool (default: on in matches),
## turn_time_limit_s: int (overrides the preset's turn clock), save_record: bool (default true)}.
## Returns the engine's code (0 = OK).
func start(cfg: Dictionary) -> int:
	config = cfg.duplicate(true)
	if not available():
		push_error("MatchController: GuandanEngine is not registered (build the extension)")
		return -1
	if engine == null:
		engine = ClassDB.instantiate(&"GuandanEngine")
		engine.name = "Engine"
		add_child(engine)
		for name: StringName in SIGNALS:
			engine.connect(name, _forward.bind(name))
	if ClassDB.class_exists(&"MoveAdvisor") and advisor == null:
		advisor = ClassDB.instantiate(&"MoveAdvisor")
		advisor.attach(engine)
	var levels: Array = config.get("ai_levels", [2, 2, 2])
	var debug := bool(config.get("ai_debug", Settings.get_value(&"ai_debug")))
	var seats: Array = ["human", _profile(int(levels[0]), debug), _profile(int(levels[1]), debug),
		_profile(int(levels[2]), debug)]
	if config.get("all_ai", false):
		seats[0] = _profile(int(config.get("human_seat_level", 2)), debug)
	var mode: StringName = config.get("mode", &"training")
	engine.use_turn_timer = bool(config.get("turn_timer", mode == &"match"))
	engine.ai_min_think_ms = int(config.get("ai_min_think_ms", 400))
	var match_seed_value: int = config.get("seed", randi() << 31 | randi())
	config.seed = match_seed_value
	record_name = "match_%s_%d" % [Time.get_datetime_string_from_system(false).replace(":", "-").replace("T", "_"),
		absi(match_seed_value) % 100000]
	var rules: Resource = _rules(String(config.get("rules", "competition")))
	if config.has("turn_time_limit_s") and rules != null:
		rules = rules.duplicate()
		rules.set(&"turn_time_limit_s", int(config.turn_time_limit_s))
	return engine.start_match(rules, seats, match_seed_value)


## AI seats and clocks wait while paused (the table pauses while it animates or shows a panel).
func set_paused(paused: bool) -> void:
	if engine != null:
		engine.paused = paused


func local_seat() -> int:
	return engine.get_local_seat() if engine != null else -1


func state() -> Dictionary:
	return engine.get_state() if engine != null else {}


func hand() -> PackedInt32Array:
	return engine.get_hand()


func seat_hand(seat: int) -> PackedInt32Array:
	return engine.get_seat_hand(seat)


func level() -> int:
	return engine.get_level()


func wild_cards() -> PackedInt32Array:
	return engine.get_wild_cards()


func is_local_turn() -> bool:
	return engine != null and engine.is_local_turn()


func phase() -> int:
	return engine.get_phase() if engine != null else 0


func time_left() -> float:
	return engine.get_time_left()


func tribute_options() -> PackedInt32Array:
	return engine.get_tribute_options()


func return_options() -> PackedInt32Array:
	return engine.get_return_options()


func match_seed() -> int:
	return engine.get_seed() if engine != null else 0


# --- the local player's actions (each returns the engine's code; 0 = OK) -------------------------

func play(cards: PackedInt32Array, reading := -1) -> int:
	return engine.play(cards, reading)


func pass_turn() -> int:
	return engine.pass_turn()


func give_tribute(card: int) -> int:
	return engine.give_tribute(card)


func return_card(card: int) -> int:
	return engine.return_card(card)


# --- advice (training) -------------------------------------------------------------------------

## Hints for the local player, best first: [{pass, play: {} (pass) or a play dictionary, reason,
## reason_args, score}]. Empty when it is not the local player's turn.
func hints(limit := 5) -> Array:
	if advisor == null or local_seat() < 0:
		return []
	return advisor.hints(limit)


## What the selected cards are and can become: {readings: [play dictionary + index, playable,
## default], playable: [the playable ones], wild_snaps: [{wild, play, as_rank, as_suit}]}.
func selection(cards: PackedInt32Array) -> Dictionary:
	if advisor == null or local_seat() < 0 or cards.is_empty():
		return {}
	var readings: Array = []
	var playable: Array = []
	for r: Dictionary in advisor.readings(cards):
		var p: Dictionary = r.play.duplicate()
		p.index = r.index
		p.playable = r.playable
		p.default = r.default
		readings.append(p)
		if r.playable:
			playable.append(p)
	return {readings = readings, playable = playable, wild_snaps = advisor.wild_snaps(cards)}


## Heat map of the local hand: card id -> {bomb, straight, wild, danger} (each 0..1).
func heat_map() -> Dictionary:
	if advisor == null or local_seat() < 0:
		return {}
	return advisor.heat_map()


## The AI's reasons for the last decision of `seat` (AI debug overlay; AI seats are created with
## their profile's `debug` on when Settings ai_debug is), or {}.
func ai_trace(seat: int) -> Dictionary:
	if advisor == null:
		return {}
	return advisor.ai_trace(seat)


# --- records -----------------------------------------------------------------------------------

## Saves the match so far as its replay record (config save_record: false turns it off, for
## tests); returns the record name, or "" when nothing was saved.
func save_record() -> String:
	if not config.get("save_record", true) or engine == null or not engine.has_match() \
			or engine.get_action_count() == 0 or not ClassDB.class_exists(&"ReplayRecorder"):
		return ""
	var recorder: RefCounted = ClassDB.instantiate(&"ReplayRecorder")
	if recorder.record(engine) != 0:
		return ""
	return record_name if recorder.save(record_name) == 0 else ""


func _forward(...args: Array) -> void:
	var name: StringName = args.pop_back()
	var event := {"signal": name}
	var names: Array = SIGNALS[name]
	for i in mini(names.size(), args.size()):
		event[names[i]] = args[i]
	event_received.emit(event)


## The AI profile resource of a level (res://resources/ai/easy|medium|hard.tres), a copy with
## `debug` on when the AI's reasons should be kept for the overlay.
static func _profile(level: int, debug: bool) -> Variant:
	var path := "res://resources/ai/%s.tres" % ["easy", "medium", "hard"][clampi(level, 1, 3) - 1]
	if not ResourceLoader.exists(path):
		return clampi(level, 1, 3)
	var profile: Resource = load(path)
	if debug:
		profile = profile.duplicate()
		profile.set(&"debug", true)
	return profile


static func _rules(preset: String) -> Resource:
	var path := "res://resources/rules/%s.tres" % preset
	if ResourceLoader.exists(path):
		return load(path)
	if ClassDB.class_exists(&"GuandanRules"):
		return ClassDB.class_call_static(&"GuandanRules", &"preset", preset)
	return null
