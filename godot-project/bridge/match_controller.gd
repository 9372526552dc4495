class_name MatchController
extends Node
## The live match, local or online, the local player's actions, surrender, advice and the AI's
## traces. One of the bridge/ scripts, the only ones that name the Rust extension's
## GuandanEngine, MoveAdvisor and ReplayRecorder (see docs/godot-api.md;
## tests/godot/ui/test_boundary.gd checks it); the records on disk and the Continue entry are
## RecordLibrary's, replay playback ReplayController's.
##
## A live match is one GuandanEngine: it runs the match here, or online (`MatchConfig.online`)
## it follows the session's client (online/online_session.gd) and shows the server's match with
## the same signals, getters and actions; the table never knows which one it has.
##
## The table sees a match as a stream of typed events — one MatchEvent class per engine signal
## (res://events/: CardsPlayedEvent {seat, play}, …), made and checked here, where the signal
## arrives — plus a few calls. Replays produce the same events (ReplayController.record_events),
## so the table draws a live match and a replay with the same code.

## One engine signal, as its typed event (marked `restoring` while a resumed deal is announced).
signal event_received(event: MatchEvent)

## GuandanEngine's signal names, read from ClassDB (never copied by hand).
static var _signal_names: Array[StringName] = []

## The configuration of the running match (null before `start`).
var config: MatchConfig
## The match (created at the first `start`, kept for the next).
var engine: GuandanEngine
var advisor: MoveAdvisor
## The replay record of this match (user://records/<name>.jsonl), saved at the end of each deal
## and when the player leaves; one file per match.
var record_name := ""
## The local player's turn timeouts in a row (reset when they act themselves); at the config's
## `auto_play_after_timeouts` the AI takes the seat over.
var timeouts_in_a_row := 0
## The seats the match was started with (to resume after a fatal error).
var _seats: Array = []
## Set while the engine announces a resumed match (Continue, or after a crash): the deal so far
## is replayed, and its events carry `restoring: true` so the table draws them at once.
var _restoring := false


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
	if advisor == null:
		advisor = MoveAdvisor.new()
	advisor.attach(engine)
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
	record_name = "match_%s_%d" % [Time.get_datetime_string_from_system(false).replace(":", "-").replace("T", "_"),
		absi(config.seed) % 100000]
	timeouts_in_a_row = 0
	_seats = seats
	if config.resume_record != "":
		return _resume(seats)
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


## Resumes the saved record `config.resume_record` at its end (the same record file is then
## saved again). Returns the recorder's or the engine's code.
func _resume(seats: Array) -> int:
	var rec := ReplayRecorder.new()
	var code := rec.load(config.resume_record)
	if code == GuandanEngine.OK:
		code = rec.seek(rec.get_action_count())
	if code == GuandanEngine.OK:
		_restoring = true
		code = engine.resume_from(rec, seats)
		_restoring = false
	if code == GuandanEngine.OK:
		record_name = config.resume_record
		config.seed = engine.get_seed()
	else:
		_write_load_failure(config.resume_record, code, rec.get_last_error() if not rec.has_record() else engine.get_last_error())
		RecordLibrary.forget_continue()
	return code


## A record that cannot be continued: the error goes to user://crash/ like an engine crash.
static func _write_load_failure(record: String, code: int, message: String) -> String:
	DirAccess.make_dir_recursive_absolute("user://crash")
	var path := "user://crash/load_%d.json" % Time.get_unix_time_from_system()
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		return ""
	f.store_string(JSON.stringify({error = message, code = code, during = "continue", record = record}, "  "))
	f.close()
	return path


## After a fatal engine error (the `crashed` event): plays on from the last valid state.
func resume_after_crash() -> int:
	if engine == null:
		return GuandanEngine.ERR_NO_MATCH
	_restoring = true
	var code := engine.resume_last_valid(_seats)
	_restoring = false
	return code


## The path of the last crash report ("" if none).
func last_crash_report() -> String:
	return engine.get_last_crash_report() if engine != null else ""


## Tests (debug builds): a Rust panic inside a guarded engine call.
func debug_force_panic() -> int:
	return engine.debug_force_panic() if engine != null else GuandanEngine.ERR_NO_MATCH


## Remembers this match for "Continue" (after saving its record); returns false when there is
## nothing to continue (no record — a match that is not saved, like the guided deal — or the
## match is over). Another match's Continue entry is never dropped here: only a new match the
## player chose to start over it replaces it (the app asks first, see ui/app.gd).
func remember_for_continue(saved_record: String) -> bool:
	if config != null and config.online:
		return false  # online: the server keeps the match; an offline Continue entry stays
	if saved_record == "" or config == null or not has_match() or engine.is_match_over():
		forget_own_continue()
		return false
	return RecordLibrary.remember_continue(config, saved_record)


## Drops the Continue entry if it is this match's (its record), e.g. when the match is over; an
## entry of another match stays.
func forget_own_continue() -> void:
	RecordLibrary.forget_continue_of(record_name)


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


func state() -> Dictionary:
	return engine.get_state() if engine != null else {}


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
	return _acted(engine.play(cards, reading)) if engine != null else GuandanEngine.ERR_NO_MATCH


func pass_turn() -> int:
	return _acted(engine.pass_turn()) if engine != null else GuandanEngine.ERR_NO_MATCH


func give_tribute(card: int) -> int:
	return _acted(engine.give_tribute(card)) if engine != null else GuandanEngine.ERR_NO_MATCH


func return_card(card: int) -> int:
	return _acted(engine.return_card(card)) if engine != null else GuandanEngine.ERR_NO_MATCH


## Auto-play (托管): the AI plays the local seat (true) or gives it back (false). The change
## arrives as a `controller_changed` event. Returns the engine's code.
func set_auto_play(on: bool) -> int:
	if engine == null:
		return GuandanEngine.ERR_NO_MATCH
	timeouts_in_a_row = 0
	return engine.set_auto_play(on)


## How long the deal-end panel may stay up (s): online the server's break after a deal, after
## which the next deal goes on whatever the table shows; 0 offline (the engine waits for the
## panel).
func deal_break_s() -> float:
	if config == null or not config.online:
		return 0.0
	return float(Online.client.get_room().get("deal_break_ms", 0)) / 1000.0


## The table has drawn the local player's prompt. Online the server's clock for the duty then
## starts (the engine's offline clock already waited while the table drew).
func prompt_seen() -> void:
	if engine != null:
		engine.prompt_seen()


func is_auto_play() -> bool:
	return engine != null and engine.is_auto_play()


## The card counter of the local player: {ranks: 15 counts (2..A, small joker, big joker) of the
## cards the other three still hold, wilds, total}; {} without a local player.
func card_counter() -> Dictionary:
	if advisor == null or local_seat() < 0:
		return {}
	return advisor.card_counter()


## The player acted themselves: the run of timeouts is broken.
func _acted(code: int) -> int:
	if code == GuandanEngine.OK:
		timeouts_in_a_row = 0
	return code


## Proposes that the local team surrenders (AI seats accept at once, so the match ends).
func propose_surrender() -> int:
	return engine.propose_surrender() if engine != null else GuandanEngine.ERR_NO_MATCH


## Answers the open surrender proposal (online: the vote dialog of online/online_table.gd).
func surrender_vote(accept: bool) -> int:
	return engine.surrender_vote(accept) if engine != null else GuandanEngine.ERR_NO_MATCH


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


## Every play the local player may make now (empty selection), or the plays containing `cards`.
func legal_plays(cards := PackedInt32Array()) -> Array:
	return advisor.legal_plays(cards) if advisor != null else []


## Heat map of the local hand: card id -> {bomb, straight, wild, danger} (each 0..1).
func heat_map() -> Dictionary:
	if advisor == null or local_seat() < 0:
		return {}
	return advisor.heat_map()


## The AI's reasons for the last decision of `seat` (AI debug overlay; AI seats are created with
## their profile's `debug` on when the config's ai_debug is), or {}.
func ai_trace(seat: int) -> Dictionary:
	if advisor == null:
		return {}
	return advisor.ai_trace(seat)


# --- the record of this match ------------------------------------------------------------------

## Saves the match so far as its replay record (config save_record false turns it off, for
## tests); returns the record name, or "" when nothing was saved.
func save_record() -> String:
	if config == null or not config.save_record or not has_match() or config.online or engine.get_action_count() == 0:
		return ""
	return record_name if RecordLibrary.save(engine, record_name) else ""


func _forward(...args: Array) -> void:
	var name: StringName = args.pop_back()
	var event := MatchEvent.from_args(name, args)
	if event == null:
		return  # refused, with an error naming the signal and the argument
	event.restoring = _restoring
	event_received.emit(event)
	if event is TurnTimedOutEvent and (event as TurnTimedOutEvent).seat == local_seat():
		timeouts_in_a_row += 1
		var limit := config.auto_play_after_timeouts if config != null else 0
		if limit > 0 and timeouts_in_a_row >= limit and not engine.is_auto_play():
			engine.set_auto_play(true)


## The AI profile resource of a level (res://resources/ai/easy|medium|hard.tres), a copy with
## `debug` on when the AI's reasons should be kept for the overlay.
static func _profile(level: int, debug: bool) -> AiProfile:
	var path := "res://resources/ai/%s.tres" % ["easy", "medium", "hard"][clampi(level, 1, 3) - 1]
	var profile: AiProfile = load(path) if ResourceLoader.exists(path) else AiProfile.for_level(clampi(level, 1, 3))
	if debug:
		profile = profile.duplicate()
		profile.debug = true
	return profile


static func _rules(preset: String) -> GuandanRules:
	var path := "res://resources/rules/%s.tres" % preset
	if ResourceLoader.exists(path):
		return load(path)
	return GuandanRules.preset(preset)


## The cards each seat still held when deal `deal_no` ended (seat -> ids; a seat that went out
## holds none). The engine has moved on to the next deal by the time the table shows the end of
## this one, so the match so far is replayed in Rust to the last position of that deal.
func hands_at_end_of_deal(deal_no: int) -> Array:
	if not has_match():
		return []
	var rec := ReplayRecorder.new()
	if rec.record(engine) != GuandanEngine.OK:
		return []
	for n in range(rec.get_action_count(), -1, -1):
		rec.seek(n)
		var st: Dictionary = rec.get_state()
		if int(st.get("deal_no", -1)) == deal_no:
			return Array(st.get("hands", []))
		if int(st.get("deal_no", -1)) < deal_no:
			break
	return []
