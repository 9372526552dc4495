extends Node
## The chaos tour's second person (tools/test-online --chaos; run as a scene, not by the suite's
## runner): a Godot process of its own, reaching the server through its own fault relay, joins
## south's room (its code from --code-file) as north, south's partner, and plays the whole match
## through the real online table scene like south (the advisor's first hint, else pass; the first
## tribute / return option; "next deal" on each deal panel), the table checking its own invariants
## on every frame. South proposes to give up once (e2e_south.gd --vote-at): north is asked in the
## table's vote dialog and, after reading it for a moment, answers "keep playing" there.
## At the match's end it writes what it saw as JSON (--out) and quits: 0 when it ran to the end.
##
## Args after `--`: --server HOST:PORT --code-file PATH --seat-file PATH --out PATH [--timeout S]
## (--seat-file: the seat it was given, written once it sits, so the tour seats West after it).

## How long north reads the vote's dialog before answering (s).
const READ_VOTE_S := 1.5

var _args := {"timeout": "900"}
var _screen: Control
var _table: Table
var _last_acted := -1
var _over := false
var _reading_vote := false
var _report := {
	"ok": false, "error": "", "seat": -1, "acted": 0, "resynced": 0, "reconnecting": 0,
	# [action count, state hash] right after each full state (as e2e_south.gd).
	"resync_hashes": [],
	# Each vote dialog north saw: {at: action count, clock: whether it showed the turn's clock,
	# clock_s: its seconds, answer: how it closed}.
	"votes": [],
}


func _ready() -> void:
	var user := OS.get_cmdline_user_args()
	for i in range(0, user.size() - 1):
		if user[i].begins_with("--"):
			_args[user[i].substr(2)] = user[i + 1]
	Settings.set_value(&"anim_speed", 0.0)
	Online.check_invariants = true
	Online.accounts_path = String(_args.out).get_base_dir().path_join("accounts_north.cfg")
	_run()


func _wait(cond: Callable, seconds: float) -> bool:
	var until := Time.get_ticks_msec() + int(seconds * 1000.0)
	while not cond.call():
		if Time.get_ticks_msec() > until:
			return false
		await get_tree().process_frame
	return true


func _run() -> void:
	var c: Node = Online.client
	c.reconnecting.connect(func(_a: int) -> void: _report.reconnecting += 1)
	c.resynced.connect(func(_seq: int) -> void:
		_report.resynced += 1
		_last_acted = -1  # an intent lost on the way: the full state decides
		if _table != null:
			var engine: Node = _table.controller.engine
			_report.resync_hashes.append([engine.get_action_count(), String(engine.get_state_hash())]))
	if Online.ensure_connected(String(_args.server), "North") != 0 or await Online.wait_online(30.0) != 0:
		return _finish(false, "cannot connect: " + c.get_last_error())
	if not await _wait(func() -> bool: return FileAccess.file_exists(String(_args["code-file"])), 60.0):
		return _finish(false, "no room code")
	var code := FileAccess.get_file_as_string(String(_args["code-file"])).strip_edges()
	var seat := [-2]
	c.room_joined.connect(func(_code: String, s: int) -> void: seat[0] = s)
	c.join_room(code)
	if not await _wait(func() -> bool: return seat[0] != -2, 30.0):
		return _finish(false, "not let into room %s: %s" % [code, c.get_last_error()])
	_report.seat = seat[0]
	var f := FileAccess.open(String(_args["seat-file"]), FileAccess.WRITE)
	f.store_string(str(seat[0]))
	f.close()
	# Ready once every seat is taken (the room's ready check), like the CLI seats.
	var full := func() -> bool:
		var room: OnlineRoom = c.get_room()
		if room == null:
			return false
		for s: RoomSeat in room.seats:
			if s.player == "" and s.ai == 0:
				return false
		return true
	if not await _wait(full, 120.0):
		return _finish(false, "the room did not fill: %s" % c.get_room())
	c.set_ready(true)
	if not await _wait(func() -> bool: return c.has_match(), 120.0):
		return _finish(false, "the match did not start")
	_screen = load("res://online/online_table.tscn").instantiate()
	_screen.open({config = MatchConfig.with({online = true, mode = &"match", save_record = false})})
	add_child(_screen)
	_table = _screen.table
	if _table == null:
		return _finish(false, "the online table screen built no table")
	_table.match_panel_shown.connect(func(_e: MatchEndedEvent) -> void: _over = true)
	(_screen.votes as Modal).closed.connect(func(_id: StringName) -> void: _reading_vote = false)
	if not await _wait(func() -> bool: return _over, float(_args.timeout)):
		return _finish(false, "the match did not end")
	_finish(true)


func _process(_delta: float) -> void:
	if Time.get_ticks_msec() > float(_args.timeout) * 1000.0 and _report.error == "" and not _report.ok:
		set_process(false)
		_finish(false, "not finished after %s s" % _args.timeout)
		return
	if _table == null or _over:
		return
	var votes: Modal = _screen.votes
	if votes.is_open() and not _reading_vote:
		_reading_vote = true
		_answer_vote()
	_act()


## The partner's proposal in the vote dialog: what it shows, then "keep playing" after a moment
## (the dialog may close by itself first: its clock, or the vote closed).
func _answer_vote() -> void:
	var ask: SurrenderVoteAsk = _screen.vote_ask
	var seen := {at = _table.controller.action_count(), clock = ask.shows_clock(), clock_s = ask.shown_seconds(),
		title = String((_screen.votes.find_child("Title", true, false) as Label).text), answer = ""}
	_report.votes.append(seen)
	var votes: Modal = _screen.votes
	var closed_as := [&""]
	var on_closed := func(id: StringName) -> void: closed_as[0] = id
	votes.closed.connect(on_closed)
	await get_tree().create_timer(READ_VOTE_S).timeout
	if votes.is_open():
		votes.press(&"no")
	seen.answer = String(closed_as[0])
	votes.closed.disconnect(on_closed)


## North's duty, once per position, through its table's controller.
func _act() -> void:
	var mc: MatchController = _table.controller
	if _table.modal.is_open():
		if not _table.match_over:
			_table.modal.press(&"next")
		return
	if mc == null or not _table.is_idle() or _table.duty == &"" or mc.action_count() == _last_acted:
		return
	var code := E2eDuty.act(_table)
	if code == 0:
		_last_acted = mc.action_count()
		_report.acted += 1


func _finish(ok: bool, error := "") -> void:
	_report.ok = ok
	_report.error = error
	var engine: Node = _table.controller.engine if _table != null else null
	_report.state_hash = String(engine.get_state_hash()) if engine != null else ""
	_report.action_count = engine.get_action_count() if engine != null else 0
	var checks: SessionInvariants = _screen.invariants if _screen != null else null
	_report.invariant_frames = checks.frames if checks != null else 0
	_report.vote_clock_frames = checks.vote_clock_frames if checks != null else 0
	_report.invariants = checks.violations.duplicate() if checks != null else []
	var f := FileAccess.open(String(_args.out), FileAccess.WRITE)
	f.store_string(JSON.stringify(_report, "  "))
	f.close()
	print("e2e_north: ", "ok" if ok else "FAILED: " + error)
	Online.client.disconnect_from_server()
	if _screen != null:
		_screen.queue_free()
	get_tree().quit.call_deferred(0 if ok else 1)
