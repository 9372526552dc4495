extends Node
## tools/test-online's Godot side (run as a scene, not by the suite's runner): the online session
## creates a room on a real guandan-server, writes its code for the three `guandan join` seats,
## starts the match when they are ready and opens the real table scene with an online config;
## south then plays by itself through the table's MatchController (the advisor's first hint,
## else pass; the first tribute / return option; "next deal" on each deal panel). In the first
## deal it turns Auto-play on after its first action and takes the seat back with "Next deal, I
## play" on that deal's panel: the next deal's first action of south must be its own (the server's
## break after a deal holds the AI; issue 24). The second deal's panel is left alone: online it
## closes by itself when the server's break is over. Later its connection is cut for a few
## seconds and restored. A second GuandanClient spectates the room.
## At the end it writes what it saw as JSON (`--out`) and quits: 0 when it ran to the end.
##
## Args after `--`: --server HOST:PORT --code-file PATH --out PATH [--drop-at N] [--offline-ms N]
## [--seed N] [--timeout S] [--freeze-file PATH --freeze-at N] [--restart-file PATH --restart-at N]
## [--vote-at N] (the freeze and the restart: tools/test-online stops the server there, or restarts
## it; the vote: south proposes to give up from that action on, its partner north a person).
## `--freeze-at D:N` / `--restart-at D:N`: at action N of deal D (0 = the first) instead of the
## match's action N — a match has at least five deals, so a point inside its first four is
## always reached (the chaos tour: a short match once ended before an action-count point).

var _args := {"drop-at": "150", "seed": "7", "timeout": "900"}
var _table: Table
## The online table screen around `_table`.
var _screen: Control
var _overlay_shown := false
var _spectator: GuandanClient
## The spectator's table, without a screen: an engine following its client.
var _spectator_match: GuandanEngine
var _report := {
	"ok": false, "error": "", "code": "", "reconnecting": 0, "resynced": 0, "hosting": [],
	"dropped_at": -1, "acted": 0, "refused": [],
	# Times the client said the room was closed (a server restart once did: the table went to the menu).
	"room_closed": 0, "spectator_room_closed": 0,
	# Auto-play in the first deal: when it went on, the panel's countdown (s) when "Next deal, I
	# play" was pressed, south's actions the AI made after that before south's own, and the
	# second deal's panel: how long it stayed up without a press.
	"auto_on_at": -1, "took_back_countdown_s": 0.0, "ai_acts_after_take_back": -1, "own_after_take_back": -1,
	"panel_up_alone_s": -1.0,
	# Deals whose top bar read other levels than the previous deal's end gave.
	"level_mismatches": [],
	# [restoring, action count] of each match_started the table was given (a full state).
	"positions": [],
	# [action count, state hash] the game's client (and the spectator's) held right after each full
	# state it was sent (a reconnect, a resync): the tour compares them with the stored record's.
	# (The signal's own seq can be a step behind: steps that came with the state are applied by then.)
	"resync_hashes": [], "spectator_resync_hashes": [],
	# The surrender vote south asks its partner (--vote-at, the chaos tour with north a person):
	# when it proposed (action count), when the proposal came back from the server, the answers
	# [table seat, accept] heard, the codes of proposals refused on the way.
	"vote": {"proposed_at": -1, "heard_at": -1, "answers": [], "refused": []},
	# Checks on the way that failed (the run goes on to the end).
	"failures": [],
	# [unix time ms, what]: the connection's ups and downs and south's own actions (the freeze
	# test measures the recovery against the moment the server was resumed).
	"timeline": [],
}
var _spectator_signals := {"hand_changed": 0, "events": 0, "hosting": [], "resynced": 0}
var _last_acted_seq := -1
## South's actions seen since it took the seat back (-1: not taken back yet or south acted since).
var _seat0_since_take_back := -1
## Deal panels shown; when the second one opened (ms).
var _panels := 0
var _panel_opened_ms := 0
var _levels_after: PackedInt32Array = []
var _took_back := false
## How long south reads the first deal's panel before "Next deal, I play" (s).
const TAKE_BACK_AFTER_S := 3.0
var _match_over := false
var _stored := false
## The deal the table showed last and the match's action count when it first showed it.
var _deal_seen := -1
var _deal_first_action := 0
## When south may propose again (ticks, ms): one intent at a time, a refused one is tried again.
var _vote_next_ms := 0


func _ready() -> void:
	var user := OS.get_cmdline_user_args()
	for i in range(0, user.size() - 1):
		if user[i].begins_with("--"):
			_args[user[i].substr(2)] = user[i + 1]
	Settings.set_value(&"anim_speed", 0.0)
	# The table checks itself on every frame (online/session_invariants.gd); the report says
	# what failed.
	Online.check_invariants = true
	# The kept guest account goes beside the report, not into the player's own user://.
	Online.accounts_path = String(_args.out).get_base_dir().path_join("accounts.cfg")
	_trust(Online.client)
	_run()


## `--ca-file PEM` (tools/test-online --tls): every client of this run trusts the test's own CA.
func _trust(client: GuandanClient) -> void:
	if not _args.has("ca-file"):
		return
	# The game's own client as a player's setting would (Online applies it before connecting).
	var rc: int = Online.trust_ca_file_for_this_run(String(_args["ca-file"])) if client == Online.client \
		else client.set_ca_file(String(_args["ca-file"]))
	if rc != 0:
		_finish(false, "the CA file was refused: " + client.get_last_error())


func _finish(ok: bool, error := "") -> void:
	if ok and not _report.failures.is_empty():
		ok = false
		error = "; ".join(_report.failures)
	_report.ok = ok
	_report.error = error
	var c: Node = Online.client
	var south: Node = _table.controller.engine if _table != null else null
	_report.state_hash = south.get_state_hash() if south != null else ""
	_report.action_count = south.get_action_count() if south != null else 0
	_report.hand_messages = c.get_hand_messages_received()
	var checks: SessionInvariants = _screen.invariants if _screen != null else null
	_report.invariant_frames = checks.frames if checks != null else 0
	_report.invariants = checks.violations.duplicate() if checks != null else []
	_report.messages = c.get_messages_received()
	if _spectator != null:
		_report.spectator = {
			"messages": _spectator.get_messages_received(),
			"hand_messages": _spectator.get_hand_messages_received(),
			"signals": _spectator_signals,
			"action_count": _spectator_match.get_action_count(),
			"hands_in_state": _hands_in(_spectator_match.get_state()),
			"local_seat": _spectator_match.get_local_seat(),
		}
	var f := FileAccess.open(String(_args.get("out", "user://e2e_south.json")), FileAccess.WRITE)
	f.store_string(JSON.stringify(_report, "  "))
	f.close()
	print("e2e_south: ", "ok" if ok else "FAILED: " + error)
	if _spectator != null:
		_spectator.disconnect_from_server()
	c.disconnect_from_server()
	if _screen != null:
		_screen.queue_free()
	get_tree().quit.call_deferred(0 if ok else 1)


## [action count, state hash] of an engine following a client: one position, read together.
static func _position(engine: Node) -> Array:
	return [engine.get_action_count(), String(engine.get_state_hash())]


static func _hands_in(state: MatchState) -> int:
	var n := 0
	if state == null:
		return n
	for h: PackedInt32Array in state.hands:
		n += h.size()
	return n


func _process(_delta: float) -> void:
	var deadline := float(_args.timeout)
	if Time.get_ticks_msec() > deadline * 1000.0 and not _report.ok and _report.error == "":
		_report.error = "timeout"
		_finish(false, "not finished after %s s" % _args.timeout)
		set_process(false)
		return
	if _screen != null and _screen.reconnect_layer != null \
			and _screen.reconnect_layer.visible != _overlay_shown:
		_overlay_shown = _screen.reconnect_layer.visible
		_mark("overlay_on" if _overlay_shown else "overlay_off")
	if _table != null and not _match_over:
		_signal_at("freeze", 300)
		_signal_at("restart", 500)
		_act()


func _wait(cond: Callable, seconds: float) -> bool:
	var until := Time.get_ticks_msec() + int(seconds * 1000.0)
	while not cond.call():
		if Time.get_ticks_msec() > until:
			return false
		await get_tree().process_frame
	return true


func _run() -> void:
	var c: Node = Online.client
	c.reconnecting.connect(func(_a: int) -> void:
		_report.reconnecting += 1
		_mark("reconnecting"))
	c.resynced.connect(func(_seq: int) -> void:
		_report.resynced += 1
		if _table != null:
			_report.resync_hashes.append(_position(_table.controller.engine))
		# An intent sent just before the connection went (or the server stopped) may be lost:
		# the full state decides, and south acts on it again like a player whose buttons came
		# back (else it waited for the turn's 30 s limit: "played on 30 s after the restart").
		_last_acted_seq = -1
		_mark("resynced"))
	c.connected.connect(func(_p: String) -> void: _mark("connected"))
	# A stalled server: the connection turns unstable (the table's latency line warns) and
	# steady again; what the table showed is read where it shows it.
	c.connection_unstable.connect(func(u: bool) -> void:
		_mark("unstable_on" if u else "unstable_off")
		if u:
			_unstable_shown.call_deferred())
	c.hosting_changed.connect(func(seat: int, on: bool) -> void: _report.hosting.append([seat, on]))
	c.match_stored.connect(func(_n: int) -> void: _stored = true)
	c.room_closed.connect(func(_m: String) -> void:
		_report.room_closed += 1
		_mark("room_closed"))
	c.error.connect(func(code: int, message: String) -> void: _report.refused.append([code, message]))
	if Online.ensure_connected(String(_args.server), "South") != 0 or await Online.wait_online(20.0) != 0:
		return _finish(false, "cannot connect: " + c.get_last_error())
	var joined := []
	c.room_joined.connect(func(code: String, seat: int) -> void: joined.append([code, seat]))
	c.create_room({"rules": "competition", "seed": int(_args.seed), "spectator_delay": 1})
	if not await _wait(func() -> bool: return not joined.is_empty(), 10.0):
		return _finish(false, "no room")
	var code: String = joined[0][0]
	_report.code = code
	var f := FileAccess.open(String(_args["code-file"]), FileAccess.WRITE)
	f.store_string(code)
	f.close()
	# The three CLI seats join and say ready; then south is ready and starts.
	var seated := func() -> bool:
		var room: OnlineRoom = c.get_room()
		var n := 0
		for s: RoomSeat in room.seats if room != null else []:
			if s.player != "" and (s.ready or s.seat == 0):
				n += 1
		return n == 4
	if not await _wait(seated, 120.0):
		return _finish(false, "the other seats did not join: %s" % c.get_room())
	# The spectator watches from before the start.
	_spectator = GuandanClient.new()
	_spectator.name = "Spectator"
	add_child(_spectator)
	_trust(_spectator)
	_spectator_match = GuandanEngine.new()
	add_child(_spectator_match)
	_spectator_match.follow(_spectator)
	for sig: Dictionary in ClassDB.class_get_signal_list(&"GuandanEngine", true):
		_spectator_match.connect(String(sig.name), _on_spectator_signal.bind(String(sig.name)))
	for name: String in ["hosting_changed", "resynced"]:
		_spectator.connect(name, _on_spectator_signal.bind(name))
	_spectator.room_closed.connect(func(_m: String) -> void: _report.spectator_room_closed += 1)
	_spectator.connect_to_server(String(_args.server), "Watcher")
	if not await _wait(func() -> bool: return _spectator.is_online(), 20.0):
		return _finish(false, "the spectator cannot connect")
	_spectator.spectate(code)
	if not await _wait(func() -> bool: return _spectator.is_spectator(), 10.0):
		return _finish(false, "the spectator was not let in")
	c.set_ready(true)
	var all_ready := func() -> bool:
		var room: OnlineRoom = c.get_room()
		for s: RoomSeat in room.seats if room != null else []:
			if not s.ready:
				return false
		return true
	if not await _wait(all_ready, 20.0):
		return _finish(false, "not everyone is ready: %s" % c.get_room())
	c.start_room()
	if not await _wait(func() -> bool: return c.has_match(), 20.0):
		return _finish(false, "the match did not start: " + c.get_last_error())
	# The real online table screen (its "reconnecting" overlay included) around the real table,
	# told it plays online: its controller takes the session's client.
	_screen = load("res://online/online_table.tscn").instantiate()
	_screen.open({config = MatchConfig.with({online = true, mode = &"match", save_record = false})})
	add_child(_screen)
	_table = _screen.table
	if _table == null:
		return _finish(false, "the online table screen built no table")
	_table.match_panel_shown.connect(func(_e: MatchEndedEvent) -> void: _match_over = true)
	_table.deal_panel_shown.connect(_on_deal_panel)
	_table.event_handled.connect(_on_event_handled)
	# Each full state announced (the table's first, then the resyncs after the cut): whether it
	# came as a position to draw at once (`restoring`: no deal flight over the plays, issue 38).
	_table.controller.event_received.connect(func(e: MatchEvent) -> void:
		if e is MatchStartedEvent:
			_report.positions.append([e.restoring, _table.controller.action_count()]))
	var south: Node = _table.controller.engine
	south.surrender_proposed.connect(func(seat: int) -> void:
		if seat == 0 and _report.vote.heard_at < 0:
			_report.vote.heard_at = _table.controller.action_count())
	south.surrender_voted.connect(func(seat: int, accept: bool) -> void: _report.vote.answers.append([seat, accept]))
	for sig: StringName in [&"cards_played", &"passed", &"tribute_given", &"card_returned"]:
		south.connect(sig, _on_south_may_act.bind(sig))
	# South's actions are counted from the first deal's end (as the client hears it, or as the
	# table shows it: whichever is first) until south acts again by itself.
	south.deal_ended.connect(func(..._a: Array) -> void:
		if not _took_back and _seat0_since_take_back < 0:
			_seat0_since_take_back = 0, CONNECT_ONE_SHOT)
	if not await _wait(func() -> bool: return _match_over, float(_args.timeout)):
		return _finish(false, "the match did not end")
	await _wait(func() -> bool: return _stored, 10.0)
	# The finished match is kept among the player's records (downloaded, replayed whole).
	await _wait(func() -> bool: return Online.records.last_kept != "", 20.0)
	_report.record_kept = Online.records.last_kept
	_report.record_kept_seat = OnlineRecords.seat_of(Online.records.last_kept)
	if Online.records.last_kept != "":
		var rec := ReplayRecorder.new()
		if rec.load(Online.records.last_kept) == GuandanEngine.OK:
			_report.record_kept_hash = String(rec.get_final_hash())
	# The spectator is a few rounds behind: give it time to reach the end.
	await _wait(func() -> bool: return _spectator_match.is_match_over(), 30.0)
	_report.spectator_saw_end = _spectator_match.is_match_over()
	_report.rejoined_seat = await _rejoin_as_south(code)
	_finish(true)


## Coming back as the same player (the game closed and opened again): a new client given the
## kept account joins the room and is given south's seat (-2: no answer).
func _rejoin_as_south(code: String) -> int:
	var account: Dictionary = Online.client.get_credentials()
	if account.is_empty():
		return -2
	var again := GuandanClient.new()
	add_child(again)
	_trust(again)
	var seat := [-2]
	again.room_joined.connect(func(_c: String, s: int) -> void: seat[0] = s)
	again.set_credentials(String(_args.server), "South", String(account.player_id), String(account.token))
	again.connect_to_server(String(_args.server), "South")
	if await _wait(func() -> bool: return again.is_online(), 20.0):
		again.join_room(code)
		await _wait(func() -> bool: return seat[0] != -2, 10.0)
	again.disconnect_from_server()
	again.queue_free()
	return seat[0]


func _on_spectator_signal(...args: Array) -> void:
	var name: String = args.pop_back()
	_spectator_signals.events += 1
	if name == "hand_changed":
		_spectator_signals.hand_changed += 1
	elif name == "hosting_changed":
		_spectator_signals.hosting.append(args)
	elif name == "resynced":
		_spectator_signals.resynced += 1
		_report.spectator_resync_hashes.append(_position(_spectator_match))


## Tells tools/test-online (by the file `--<what>-file`) that the match reached `--<what>-at`
## actions: there it stops the server for a while (freeze: SIGSTOP, SIGCONT) or restarts it
## (restart: SIGTERM, then a new process on the same port and database).
func _signal_at(what: String, default_at: int) -> void:
	if not _args.has(what + "-file") or _report.has(what + "_signalled"):
		return
	var mc: MatchController = _table.controller
	if mc == null or not _reached(mc, String(_args.get(what + "-at", str(default_at)))):
		return
	_report[what + "_signalled"] = mc.action_count()
	_mark(what + "_asked")
	var f := FileAccess.open(String(_args[what + "-file"]), FileAccess.WRITE)
	f.store_string(str(mc.action_count()))
	f.close()


## Whether the match is at or past `point`: an action count N, or D:N (action N of deal D).
func _reached(mc: MatchController, point: String) -> bool:
	if not point.contains(":"):
		return mc.action_count() >= int(point)
	var deal := int(point.get_slice(":", 0))
	if _table.deal_no != _deal_seen:
		_deal_seen = _table.deal_no
		_deal_first_action = mc.action_count()
	return _table.deal_no > deal or (_table.deal_no == deal and mc.action_count() - _deal_first_action >= int(point.get_slice(":", 1)))


## An action event from the client (as it arrives, ahead of the table): counts south's actions
## after the take-back. The first argument of each is the seat (from for a tribute or return).
func _on_south_may_act(...args: Array) -> void:
	args.pop_back()
	if _seat0_since_take_back >= 0 and int(args[0]) == 0:
		_seat0_since_take_back += 1


func _on_deal_panel(e: DealEndedEvent) -> void:
	_panels += 1
	_levels_after = e.level_changes.after
	if _panels == 1:
		_seat0_since_take_back = maxi(_seat0_since_take_back, 0)
		_report.took_back_countdown_s = _table.modal.seconds_to_auto_press()
		if _table.modal.button(&"myself") == null:
			_report.failures.append("no 'Next deal, I play' on the panel with Auto-play on")
			return
		# Read like a player for a while (within the server's break), then take the seat back.
		await get_tree().create_timer(TAKE_BACK_AFTER_S).timeout
		if _table.modal.is_open():
			_table.modal.press(&"myself")
		else:
			_report.failures.append("the first deal's panel closed before south took the seat back")
		_took_back = true
	elif _panels == 2:
		_panel_opened_ms = Time.get_ticks_msec()


func _on_event_handled(e: MatchEvent) -> void:
	if e is DealStartedEvent and not _levels_after.is_empty() and _table.team_levels != _levels_after:
		_report.level_mismatches.append([(e as DealStartedEvent).deal_no, Array(_table.team_levels), Array(_levels_after)])


## South's turn: act once per position, through the table's controller.
func _act() -> void:
	var c: Node = Online.client
	var mc: MatchController = _table.controller
	if mc == null:
		return
	if _table.modal.is_open():
		if _panels == 2 and _panel_opened_ms > 0:
			return  # left alone: it closes by itself
		if _panels != 1 or _took_back:
			_table.modal.press(&"next")
		return
	if _panel_opened_ms > 0:
		_report.panel_up_alone_s = (Time.get_ticks_msec() - _panel_opened_ms) / 1000.0
		_panel_opened_ms = 0
	var drop_at := int(_args["drop-at"])
	# The cut comes after the take-back is checked (the seat is the player's again by then).
	if _report.dropped_at < 0 and mc.action_count() >= drop_at and drop_at > 0 and _report.own_after_take_back >= 0:
		_report.dropped_at = mc.action_count()
		# Away longer than the server's heartbeat timeout: its AI hosts the seat meanwhile.
		c.drop_connection_for_test(int(_args.get("offline-ms", "8000")))
		return
	_propose_surrender(mc)
	if not _table.is_idle() or _table.duty == &"" or mc.action_count() == _last_acted_seq:
		return
	var code := E2eDuty.act(_table)
	if code == 0:
		_last_acted_seq = mc.action_count()
		_report.acted += 1
		_mark("acted")
		if _report.auto_on_at < 0 and _panels == 0:
			# After its first action south hands the seat to the AI for the rest of the deal.
			_report.auto_on_at = mc.action_count()
			mc.set_auto_play(true)
		elif _took_back and _seat0_since_take_back >= 0:
			_report.ai_acts_after_take_back = _seat0_since_take_back
			_report.own_after_take_back = mc.action_count()
			_seat0_since_take_back = -1


## From --vote-at actions on, south proposes to give up until the server announces its proposal
## (every 2 s: a proposal lost in a fault, or refused for the moment, is made again), while its
## partner is at the table and it is the partner's turn.
func _propose_surrender(mc: MatchController) -> void:
	var vote: Dictionary = _report.vote
	if not _args.has("vote-at") or vote.heard_at >= 0 or mc.action_count() < int(_args["vote-at"]) \
			or Time.get_ticks_msec() < _vote_next_ms or vote.refused.size() >= 60:
		return
	_vote_next_ms = Time.get_ticks_msec() + 2000
	# Asked of the person: not while the partner is away and the server's AI answers for the seat
	# (seed 11: north's 36 s stall had the AI keep playing for it, and north was never asked).
	var room: OnlineRoom = Online.client.get_room()
	for s: RoomSeat in room.seats if room != null else []:
		if s.seat == (maxi(Online.seat, 0) + 2) % 4 and (not s.connected or s.hosted):
			return
	# On the partner's turn: its dialog then stands over its own clock (the session's vote_clock
	# invariant is checked live there; issue 52: the clock ran on behind the dialog).
	if _table.turn_seat != (mc.local_seat() + 2) % 4:
		return
	var code := mc.propose_surrender()
	if code != 0:
		vote.refused.append(code)
	elif vote.proposed_at < 0:
		vote.proposed_at = mc.action_count()


## The latency line says the connection is unstable (the frame after the signal).
func _unstable_shown() -> void:
	if _screen != null and _screen.latency.text == tr("ONLINE_UNSTABLE"):
		_mark("unstable_shown")


func _mark(what: String) -> void:
	_report.timeline.append([int(Time.get_unix_time_from_system() * 1000.0), what])
