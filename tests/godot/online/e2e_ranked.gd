extends Node
## The chaos tour's ranked ending (tools/test-online --chaos-ranked; run as a scene, not by the
## suite's runner): one person of a ranked quick match, in a Godot process of its own behind its
## own fault relay. Two of them queue for the same rules; the matchmaker seats them as partners
## beside two AI seats. Each plays the whole match through the real online table (the advisor's
## first hint, else pass; the first tribute / return; "next deal" on each deal panel; with
## --auto-play the seat is handed to the server's AI after its first action and left there, as in
## issue 52's evening, when the table ran deals behind and the room closed before the result).
## At the match's end the result's panel must show the rating's change and still be up after the
## server has closed the room (KEEP_S). Writes what it saw as JSON (--out) and quits: 0 when it
## ran to the end.
##
## With --missed-rating 1 (tools/test-online --away-at-rating: the relay cuts the connection at the
## `rating` message and refuses the player until the room has closed) the rating is never heard:
## the result must stay, say the room closed while away, and show the rating read from the
## player's profile (RatingCatchUp).
##
## Args after `--`: --server HOST:PORT --nick NAME --out PATH [--auto-play 1] [--missed-rating 1]
## [--timeout S]

## How long the result must stay up after the rating came (the server closes a finished quick
## match's room 30 s after its end).
const KEEP_S := 35.0

var _args := {"timeout": "900", "auto-play": "0", "missed-rating": "0"}
var _screen: Control
var _table: Table
var _last_acted := -1
var _over := false
var _rating := []
var _report := {
	"ok": false, "error": "", "acted": 0, "resynced": 0, "auto_play_on_at": -1,
	# [rating, change] the server said; whether the result's panel showed it; whether the panel
	# was still up KEEP_S later; why the room closed (as the client heard it).
	"rating": [], "rating_on_panel": false, "result_kept": false, "room_closed": [],
}


func _ready() -> void:
	var user := OS.get_cmdline_user_args()
	for i in range(0, user.size() - 1):
		if user[i].begins_with("--"):
			_args[user[i].substr(2)] = user[i + 1]
	Settings.set_value(&"anim_speed", 0.0)
	Online.check_invariants = true
	Online.accounts_path = String(_args.out).get_base_dir().path_join("accounts_%s.cfg" % _args.nick)
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
	c.resynced.connect(func(_s: int) -> void:
		_report.resynced += 1
		_last_acted = -1)
	c.rating_changed.connect(func(_r: String, rating: int, change: int, _m: int) -> void: _rating.append([rating, change]))
	c.room_closed.connect(func(reason: String) -> void: _report.room_closed.append(reason))
	if Online.ensure_connected(String(_args.server), String(_args.nick)) != 0 or await Online.wait_online(30.0) != 0:
		return _finish(false, "cannot connect: " + c.get_last_error())
	if c.queue_join("competition") != 0:
		return _finish(false, "could not queue: " + c.get_last_error())
	if not await _wait(func() -> bool: return c.has_match(), 180.0):
		return _finish(false, "no quick match")
	_report.code = c.get_room_code()
	_screen = load("res://online/online_table.tscn").instantiate()
	_screen.open({config = MatchConfig.with({online = true, mode = &"match", save_record = false})})
	add_child(_screen)
	_table = _screen.table
	if _table == null:
		return _finish(false, "the online table screen built no table")
	# The match's last position is read when its end is shown: the room closes a while later and
	# the engine following it lets its match go (a helper's seed-3 run read '' and 0 there).
	_table.match_panel_shown.connect(func(_e: MatchEndedEvent) -> void:
		_over = true
		var engine: Node = _table.controller.engine
		_report.state_hash = String(engine.get_state_hash())
		_report.action_count = engine.get_action_count())
	if not await _wait(func() -> bool: return _over, float(_args.timeout)):
		return _finish(false, "the match did not end")
	if String(_args["missed-rating"]) == "1":
		await _finish_missed()
		return
	if not await _wait(func() -> bool: return not _rating.is_empty() and _panel_says(str(_rating[0][0])), 60.0):
		return _finish(false, "no rating on the result's panel (%s)" % [_rating])
	_report.rating = _rating[0]
	_report.rating_on_panel = true
	await get_tree().create_timer(KEEP_S).timeout
	_report.result_kept = is_instance_valid(_screen) and _screen.is_inside_tree() and _table.modal.is_open() \
		and _panel_says(str(_rating[0][0]))
	_finish(true)


## The rating never heard (the relay cut it): read from the profile once the room is gone.
func _finish_missed() -> void:
	var results: ResultEvents = _table.events.results
	var shown := func() -> bool: return results.rating >= 0 and _panel_says(str(results.rating))
	if not await _wait(shown, 90.0):
		return _finish(false, "no rating read from the profile on the result's panel (heard %s, room closed %s)"
			% [_rating, _report.room_closed])
	_report.rating = [results.rating, results.rating_change]
	_report.rating_heard = _rating.duplicate()
	_report.rating_on_panel = true
	_report.result_kept = _table.modal.is_open() and _panel_says(tr("ONLINE_ROOM_CLOSED_AWAY"))
	_finish(true)


## Whether a line of the open result panel holds `text`.
func _panel_says(text: String) -> bool:
	if not _table.modal.is_open():
		return false
	for l in _table.modal.find_children("*", "Label", true, false):
		if text in (l as Label).text:
			return true
	return false


func _process(_delta: float) -> void:
	if Time.get_ticks_msec() > float(_args.timeout) * 1000.0 and _report.error == "" and not _report.ok:
		set_process(false)
		_finish(false, "not finished after %s s" % _args.timeout)
		return
	if _table != null and not _over:
		_act()


## The seat's duty, once per position, through the table's controller.
func _act() -> void:
	var mc: MatchController = _table.controller
	if _table.modal.is_open():
		_table.modal.press(&"next")
		return
	if mc == null or not _table.is_idle() or _table.duty == &"" or mc.action_count() == _last_acted:
		return
	var code := E2eDuty.act(_table)
	if code == 0:
		_last_acted = mc.action_count()
		_report.acted += 1
		if String(_args["auto-play"]) == "1" and _report.auto_play_on_at < 0:
			_report.auto_play_on_at = mc.action_count()
			mc.set_auto_play(true)


func _finish(ok: bool, error := "") -> void:
	_report.ok = ok
	_report.error = error
	var engine: Node = _table.controller.engine if _table != null else null
	if not _report.has("state_hash") or _report.state_hash == "":
		_report.state_hash = String(engine.get_state_hash()) if engine != null else ""
		_report.action_count = engine.get_action_count() if engine != null else 0
	var checks: SessionInvariants = _screen.invariants if _screen != null and is_instance_valid(_screen) else null
	_report.invariant_frames = checks.frames if checks != null else 0
	_report.invariants = checks.violations.duplicate() if checks != null else []
	var f := FileAccess.open(String(_args.out), FileAccess.WRITE)
	f.store_string(JSON.stringify(_report, "  "))
	f.close()
	print("e2e_ranked: ", "ok" if ok else "FAILED: " + error)
	Online.client.disconnect_from_server()
	if _screen != null and is_instance_valid(_screen):
		_screen.queue_free()
	get_tree().quit.call_deferred(0 if ok else 1)
