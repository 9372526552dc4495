class_name SessionInvariants
extends Node
## What the online table must always show, checked by the client itself on every frame (a debug
## and test mode of the online session: `Online.check_invariants`, set by `--online-invariants`
## or by the online tests). Each rule compares the table with the session's copy of the server's
## match; a violation is kept (with the time and the words) and printed as a warning, and the
## chaos tour fails on any (issue 52):
##  - duty: when the server's copy says this seat is to act (its turn, a tribute, a return; not
##    played by the AI) and the table has drawn everything, the table offers the action (Play,
##    or Give/Return) and runs a clock within DUTY_WITHIN_S (and DUTY_MIN_FRAMES drawn frames);
##  - Auto-play: the table's own Auto-play mark equals the server's say for the seat, and every
##    other badge's mark equals its seat's `hosted`, once the table is idle for SETTLE_S;
##  - hand counts: each other seat's badge shows the copy's count when the table is idle (in the
##    play phase: during a tribute or return the table shows 27 until the exchange is over);
##  - lag: the table never shows an event received more than LAG_MAX_S ago (it catches up);
##  - the result: once the match-end panel is shown, it stays until the player leaves it;
##  - the vote's clock: while a surrender vote dialog is open on the seat's duty, the dialog shows
##    the player's running turn clock (its seconds within 1 of the clock's) within SETTLE_S.
## Time the connection is down, the table is covered (reconnecting, a stalled server) or a panel
## waits for the player is not counted against the duty and lag rules.

const DUTY_WITHIN_S := 1.0
## ...and over at least this many drawn frames: a process stalled as a whole (a loaded machine
## drew one frame in 1.2 s once) shows the player nothing either way; a table that lost its
## controls shows their absence frame after frame.
const DUTY_MIN_FRAMES := 10
const SETTLE_S := 1.0
const LAG_MAX_S := 8.0

var table: Table
## Whether the table is covered (the reconnect or stall layer): nothing to check then.
var covered := Callable()
## The online table's surrender vote dialog (its clock rule), or null.
var vote_ask: SurrenderVoteAsk
## [unix ms, rule, words] of each violation (each rule said once until it holds again).
var violations: Array = []
## Frames checked (a check that never ran cannot pass).
var frames := 0
## Frames on which a vote dialog stood over the seat's duty (the vote_clock rule was checked).
var vote_clock_frames := 0

var _duty_since := -1.0
var _duty_frames := 0
var _idle_since := -1.0
var _failing := {}
## Rule -> when its current failure began (the rules that must last to count).
var _since := {}
var _result_shown := false
var _result_left := false


func _init(t: Control, is_covered: Callable) -> void:
	table = t
	covered = is_covered
	name = "SessionInvariants"


func _ready() -> void:
	table.match_panel_shown.connect(func(_e: MatchEndedEvent) -> void: _result_shown = true)
	table.modal.closed.connect(func(_choice: StringName) -> void:
		if _result_shown:
			_result_left = true)
	table.tree_exiting.connect(_on_table_leaving)


func _process(_delta: float) -> void:
	if table == null or not is_instance_valid(table) or not table.is_inside_tree():
		return
	var client: Node = Online.client
	var controller: MatchController = table.controller
	if client.get_connection_state() != "online" or bool(covered.call()) or not controller.has_match():
		_duty_since = -1.0
		_duty_frames = 0
		_idle_since = -1.0
		return
	frames += 1
	var now := Time.get_ticks_msec() / 1000.0
	var state: MatchState = controller.engine.get_state()
	var me: int = table.local_seat
	var idle: bool = table.is_idle()
	_idle_since = (now if _idle_since < 0.0 else _idle_since) if idle else -1.0
	var settled := idle and now - _idle_since >= SETTLE_S
	# Duty: the server's copy says so, the AI does not play the seat, the table has drawn it.
	var hosted: bool = controller.is_auto_play()
	var due: bool = not table.spectator and not state.over and state.to_act.has(me) and not hosted
	if due and idle:
		if _duty_since < 0.0:
			_duty_since = now
			_duty_frames = 0
		_duty_frames += 1
		var offered: bool = (table.play_button as Button).visible and (table.my_countdown as Control).visible
		_rule(&"duty", now - _duty_since > DUTY_WITHIN_S and _duty_frames > DUTY_MIN_FRAMES and not offered,
			"the seat's duty (phase %s) shown %.1f s (%d frames) without Play/Pass or a clock (auto_play %s, duty '%s')" % [
				state.phase_name, now - _duty_since, _duty_frames, table.auto_play, table.duty])
	else:
		_duty_since = -1.0
		_rule(&"duty", false, "")
	# The vote's clock: a dialog over the seat's duty shows the turn's clock, live.
	var vote_open := vote_ask != null and vote_ask.modal.is_open()
	var clock_wrong := ""
	if due and idle and vote_open:
		vote_clock_frames += 1
		var left: float = controller.time_left()
		var shown := vote_ask.shown_seconds()
		if not (table.my_countdown as Control).visible or not vote_ask.shows_clock() or absi(shown - ceili(left)) > 1:
			clock_wrong = "a vote dialog over the seat's duty shows %d s (clock %s, %.1f s left)" % [
				shown, "running" if (table.my_countdown as Control).visible else "hidden", left]
	_lasting(&"vote_clock", now, clock_wrong != "", clock_wrong)
	if settled:
		# The copy may move a frame before the table is given its event: a mismatch counts once it
		# has lasted SETTLE_S.
		_lasting(&"auto_play", now, table.auto_play != hosted and not table.spectator,
			"the table's Auto-play is %s, the server's seat is %s" % [table.auto_play, "hosted" if hosted else "the player's"])
		var counts := state.card_counts
		var wrong := []
		var room: OnlineRoom = client.get_room()
		for s: RoomSeat in room.seats if room != null else []:
			var at := (s.seat - maxi(Online.seat, 0) + 4) % 4
			var badge: SeatBadge = table.badges[at]
			if at == me and not table.spectator:
				# The player's own mark follows their switch (a partner's update cleared it once).
				if badge.auto_play != table.auto_play:
					wrong.append("own Auto-play mark %s, the switch %s" % [badge.auto_play, table.auto_play])
				continue
			if badge.auto_play != s.hosted:
				wrong.append("seat %d Auto-play %s, hosted %s" % [at, badge.auto_play, s.hosted])
			# Counts in the play phase only: during a tribute or return the table shows the
			# deal's 27 until the exchange is over (a payer's card may leave before it is routed).
			if at < counts.size() and badge.count >= 0 and badge.count != counts[at] \
					and state.phase_name == "play" \
					and not state.finished.has(at):
				wrong.append("seat %d shows %d cards, holds %d" % [at, badge.count, counts[at]])
		_lasting(&"badges", now, not wrong.is_empty(), ", ".join(wrong))
	# Lag: the event on screen, or the oldest waiting, was received long ago.
	var age: float = table.events.oldest_age_s()
	_rule(&"lag", age > LAG_MAX_S and not table.modal.is_open(), "the table shows an event received %.1f s ago" % age)


func _on_table_leaving() -> void:
	# The result must have stayed until the player left it.
	if _result_shown and not _result_left:
		_rule(&"result", true, "the match's result went before the player left it")


## A rule that fails only once its failure has lasted SETTLE_S.
func _lasting(rule: StringName, now: float, failing: bool, words: String) -> void:
	if not failing:
		_since.erase(rule)
	elif not _since.has(rule):
		_since[rule] = now
	_rule(rule, failing and now - float(_since.get(rule, now)) >= SETTLE_S, words)


## Records a violation once each time the rule starts failing.
func _rule(rule: StringName, failing: bool, words: String) -> void:
	if failing and not _failing.get(rule, false):
		violations.append([int(Time.get_unix_time_from_system() * 1000.0), String(rule), words])
		push_warning("SessionInvariants: %s: %s" % [rule, words])
	_failing[rule] = failing
