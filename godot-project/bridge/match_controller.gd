class_name MatchController
extends Node
## The live match, local or online: the engine, its events, its state and the local player's
## actions and surrender. One of the bridge/ scripts, the only ones that name the Rust
## extension's GuandanEngine, MoveAdvisor and ReplayRecorder (see docs/godot-api.md;
## tests/godot/ui/test_boundary.gd checks it). Its parts, one concern each: `advice` (MatchAdvice:
## hints, readings, heat map, card counter, AI traces), `record` (MatchRecord: this match's replay
## record and Continue entry), `resume` (MatchResume: Continue and the resume after a crash),
## `takeover` (AutoPlayTakeover: the AI takes the seat after timeouts); DealEndHands reads the
## hands a deal ended with. The records on disk are RecordLibrary's, replay playback
## ReplayController's.
##
## A live match is one GuandanEngine: it runs the match here, or online (`MatchConfig.online`)
## it follows the session's client (online/online_session.gd) and shows the server's match with
## the same signals, getters and actions; the table never knows which one it has.
##
## The table sees a match as a stream of typed events — one MatchEvent class per engine signal
## (res://events/: CardsPlayedEvent {seat, play}, …), made and checked here, where the signal
## arrives — plus a few calls. Replays produce the same events (ReplayController.record_events),
## so the table draws a live match and a replay with the same code.

## One engine signal, as its typed event (marked `restoring` while a resumed deal, or online the
## position of a match under way, is announced).
signal event_received(event: MatchEvent)

## GuandanEngine's signal names, read from ClassDB (never copied by hand).
static var _signal_names: Array[StringName] = []

## The configuration of the running match (null before `start`).
var config: MatchConfig
## The match (created at the first `start`, kept for the next).
var engine: GuandanEngine
## The seats the match was started with (to resume after a fatal error).
var started_seats: Array = []
## Advice for the local player (training).
var advice := MatchAdvice.new(self)
## This match's replay record and its Continue entry.
var record := MatchRecord.new(self)
## Continue, and the resume after a crash.
var resume := MatchResume.new(self)
## The AI takes the local seat over after the config's run of timeouts.
var takeover := AutoPlayTakeover.new(self)


## GuandanEngine's signal names (each has its MatchEvent class).
static func signal_names() -> Array[StringName]:
	if _signal_names.is_empty():
		for info: Dictionary in ClassDB.class_get_signal_list(&"GuandanEngine", true):
			_signal_names.append(StringName(info.name))
	return _signal_names


static func engine_version() -> String:
	var e := GuandanEngine.new()
	var v := e.version()
	e.free()
	return TranslationServer.translate("MAIN_ENGINE_VERSION").format({version = v})


func _exit_tree() -> void:
	if engine != null and engine.has_match():
		engine.stop_match()


## Starts a match as `cfg` says (a copy is kept in `config`; a random seed is drawn when it has
## none). Returns the engine's code (0 = OK).
func start(cfg: MatchConfig) -> int:
	config = cfg.duplicate(true)
	if engine == null:
		engine = GuandanEngine.new()
		engine.name = "Engine"
		add_child(engine)
		for name in signal_names():
			engine.connect(name, _forward.bind(name))
	advice.attach(engine)
	if config.online:
		return _start_online()
	var seats: Array = ["human"]
	for level in config.ai_levels:
		seats.append(_profile(level, config.ai_debug))
	if config.all_ai:
		seats[0] = _profile(config.human_seat_level, config.ai_debug)
	engine.use_turn_timer = config.uses_turn_timer()
	engine.ai_min_think_ms = config.ai_min_think_ms
	engine.ai_frame_budget_ms = config.ai_frame_budget_ms
	if not config.has_seed:
		config.seed = randi() << 31 | randi()
		config.has_seed = true
	record.name_new(config.seed)
	takeover.timeouts_in_a_row = 0
	started_seats = seats
	if config.resume_record != "":
		return resume.from_record(config.resume_record, seats)
	var rules := _rules(config.rules)
	if config.turn_time_limit_s >= 0 and rules != null:
		rules = rules.duplicate()
		rules.turn_time_limit_s = config.turn_time_limit_s
	var code := engine.start_match(rules, seats, config.seed)
	if code == GuandanEngine.OK:
		var you := "" if config.all_ai else RecordLibrary.LOCAL_PLAYER
		engine.set_players(PackedStringArray([you, "", "", ""]), String(config.mode))
	return code


## Online: the match runs on the server; the engine follows the session's client. Its whole
## position is asked for again, so the table draws it from the full state (the engine announces
## it as `resume_from` does).
func _start_online() -> int:
	var code := engine.follow(Online.client)
	return code if code != GuandanEngine.OK else Online.client.resync()


## Tests (debug builds): a Rust panic inside a guarded engine call.
func debug_force_panic() -> int:
	return engine.debug_force_panic() if engine != null else GuandanEngine.ERR_NO_MATCH


## Ends the match without a result (nothing of it arrives later).
func stop() -> void:
	if engine != null:
		engine.stop_match()


## AI seats and clocks wait while paused (the table pauses while it animates or shows a panel).
func set_paused(paused: bool) -> void:
	if engine != null:
		engine.paused = paused


func has_match() -> bool:
	return engine != null and engine.has_match()


func local_seat() -> int:
	return engine.get_local_seat() if engine != null else -1


func state() -> MatchState:
	return engine.get_state() if engine != null else null


func hand() -> PackedInt32Array:
	return engine.get_hand() if engine != null else PackedInt32Array()


func seat_hand(seat: int) -> PackedInt32Array:
	return engine.get_seat_hand(seat) if engine != null else PackedInt32Array()


## Another seat's hand the viewer is shown (online: a spectator of a room whose host shows one
## team's hands); empty when not shown.
func shown_hand(seat: int) -> PackedInt32Array:
	return engine.get_shown_hand(seat) if engine != null else PackedInt32Array()


func level() -> int:
	return engine.get_level() if engine != null else 0


func wild_cards() -> PackedInt32Array:
	return engine.get_wild_cards() if engine != null else PackedInt32Array()


func is_local_turn() -> bool:
	return engine != null and engine.is_local_turn()


func phase() -> int:
	return engine.get_phase() if engine != null else GuandanEngine.PHASE_NONE


## Seconds left on the local player's clock; -1 when none runs.
func time_left() -> float:
	return engine.get_time_left() if engine != null else -1.0


func tribute_options() -> PackedInt32Array:
	return engine.get_tribute_options() if engine != null else PackedInt32Array()


func return_options() -> PackedInt32Array:
	return engine.get_return_options() if engine != null else PackedInt32Array()


func match_seed() -> int:
	return engine.get_seed() if engine != null else 0


func action_count() -> int:
	return engine.get_action_count() if engine != null else 0


## SHA-256 of the whole match state (equal hashes = equal matches).
func state_hash() -> String:
	return engine.get_state_hash() if engine != null else ""


## The message of the engine's last failed call.
func last_error() -> String:
	return engine.get_last_error() if engine != null else ""


# --- the local player's actions (each returns the engine's code; 0 = OK) -------------------------

func play(cards: PackedInt32Array, reading := -1) -> int:
	return takeover.acted(engine.play(cards, reading)) if engine != null else GuandanEngine.ERR_NO_MATCH


func pass_turn() -> int:
	return takeover.acted(engine.pass_turn()) if engine != null else GuandanEngine.ERR_NO_MATCH


func give_tribute(card: int) -> int:
	return takeover.acted(engine.give_tribute(card)) if engine != null else GuandanEngine.ERR_NO_MATCH


func return_card(card: int) -> int:
	return takeover.acted(engine.return_card(card)) if engine != null else GuandanEngine.ERR_NO_MATCH


## Auto-play (托管): the AI plays the local seat (true) or gives it back (false). The change
## arrives as a `controller_changed` event. Returns the engine's code.
func set_auto_play(on: bool) -> int:
	if engine == null:
		return GuandanEngine.ERR_NO_MATCH
	takeover.timeouts_in_a_row = 0
	return engine.set_auto_play(on)


## How long the deal-end panel may stay up (s): online the server's break after a deal, after
## which the next deal goes on whatever the table shows; 0 offline (the engine waits for the
## panel).
func deal_break_s() -> float:
	if config == null or not config.online:
		return 0.0
	var room: OnlineRoom = Online.client.get_room()
	return room.deal_break_ms / 1000.0 if room != null else 0.0


## The table has drawn the local player's prompt. Online the server's clock for the duty then
## starts (the engine's offline clock already waited while the table drew).
func prompt_seen() -> void:
	if engine != null:
		engine.prompt_seen()


func is_auto_play() -> bool:
	return engine != null and engine.is_auto_play()


## Proposes that the local team surrenders (AI seats accept at once, so the match ends).
func propose_surrender() -> int:
	return engine.propose_surrender() if engine != null else GuandanEngine.ERR_NO_MATCH


## Answers the open surrender proposal (online: the vote dialog of online/online_table.gd).
func surrender_vote(accept: bool) -> int:
	return engine.surrender_vote(accept) if engine != null else GuandanEngine.ERR_NO_MATCH


func _forward(...args: Array) -> void:
	var name: StringName = args.pop_back()
	var event := MatchEvents.from_args(name, args)
	if event == null:
		return  # refused, with an error naming the signal and the argument
	# Continue and the resume after a crash set it here; online the engine says it while it
	# announces the full state of a match under way (a reconnect, a rejoin).
	event.restoring = resume.restoring or engine.is_restoring()
	event_received.emit(event)
	if event is TurnTimedOutEvent:
		takeover.timed_out(event as TurnTimedOutEvent)


## The AI profile resource of a level (res://resources/ai/easy|medium|hard|expert.tres), a copy
## with `debug` on when the AI's reasons should be kept for the overlay.
static func _profile(level: int, debug: bool) -> AiProfile:
	var path := "res://resources/ai/%s.tres" % ["easy", "medium", "hard", "expert"][clampi(level, 1, 4) - 1]
	var profile: AiProfile = load(path) if ResourceLoader.exists(path) else AiProfile.for_level(clampi(level, 1, 4))
	if debug:
		profile = profile.duplicate()
		profile.debug = true
	return profile


static func _rules(preset: String) -> GuandanRules:
	var path := "res://resources/rules/%s.tres" % preset
	if ResourceLoader.exists(path):
		return load(path)
	return GuandanRules.preset(preset)


## The cards each seat still held when deal `deal_no` ended (seat -> ids; see DealEndHands).
func hands_at_end_of_deal(deal_no: int) -> Array:
	return DealEndHands.of(engine, deal_no) if has_match() else []
