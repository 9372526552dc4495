class_name TableEvents
extends Node
## The table's event queue. Engine events arrive from the MatchController as typed events
## (MatchEvent) and are shown strictly one after another: each handler may animate, and while
## the queue is not empty the engine is paused and the hand's input is locked. So fast AI turns
## never overlap on screen and the turn clock only runs when the table is idle.
##
## The handlers live in the parts beside this file, one concern each (TableEventPart):
## DealStartEvents (a match and a deal begin, the hand is dealt), TributeEvents (tribute and
## return), TrickEvents (turns, plays, passes, tricks, players going out, the seats' AI) and
## ResultEvents (the end of a deal, a surrender, the end of the match); the engine's trouble (an
## error, a crash) is handled here. This node keeps what they share: the waits (shortened while
## the table catches up with a server ahead of it), sounds, banners and the bomb's shake.
##
## Every GuandanEngine signal has exactly one handler in `handlers`, taking the signal's event
## class (tests/godot/ui/test_boundary.gd checks the table against ClassDB, so a new engine signal
## cannot be forgotten here).

## Online the server moves on at its own pace (an AI action a second), and a trick's end takes the
## table longer than that to show: when the table is this many actions behind, its waits shrink to
## CATCH_UP_SCALE of their length until it has caught up (before, it fell seconds behind in a deal
## and showed the deal's end panel only once the next deal had begun on the server).
const CATCH_UP_AFTER := 2
const CATCH_UP_SCALE := 0.3
const ACTION_SIGNALS: Array[StringName] = [&"cards_played", &"passed", &"tribute_given", &"card_returned"]

## Emitted by the tween `wait` runs (and on leaving the tree, to release a waiting handler).
signal _waited

var table: Table

var _queue: Array[MatchEvent] = []
var _draining := false
## When the event being shown was received (ms; -1: none being shown).
var _showing_received_ms := -1
var _wait_tween: Tween
var _shake_tween: Tween
## Set when the table leaves the tree: coroutines waiting on a tween or a panel are released
## and stop at their next check, so none outlives the table.
var closing := false
## The event being shown is part of a restored deal (`restoring` in the event: Continue, or the
## resume after a crash, replays the deal so far): drawn at once — no animation, wait, sound,
## banner or shake — so the table ends up exactly as it was when the match was left.
var instant := false
## Waits shortened to catch up with a server ahead of the table (see CATCH_UP_AFTER).
var catch_up_waits := 0
## A big moment holds the table's flow (`freeze`): the next event waits; the hand stays locked
## (the queue is draining), so the player's turn starts after it.
var frozen := false
## The last freeze asked for (seconds; 0: none), for tests.
var last_freeze_s := 0.0
## The parts that show the events, one concern each.
var dealing := DealStartEvents.new(self)
var tribute := TributeEvents.new(self)
var tricks := TrickEvents.new(self)
var results := ResultEvents.new(self)
## Engine signal -> the handler that shows its event (it may await). Method references, not
## names: the parser checks each one, so a renamed or missing handler fails to compile instead of
## being skipped at run time. Built in _init because a Callable needs its instance.
var handlers: Dictionary[StringName, Callable] = {}


func _init() -> void:
	handlers = {
		&"match_started": dealing.on_match_started,
		&"viewer_changed": dealing.on_viewer_changed,
		&"deal_started": dealing.on_deal_started,
		&"hand_changed": dealing.on_hand_changed,
		&"tribute_phase": tribute.on_tribute_phase,
		&"tribute_given": tribute.on_tribute_given,
		&"return_phase": tribute.on_return_phase,
		&"card_returned": tribute.on_card_returned,
		&"turn_started": tricks.on_turn_started,
		&"cards_played": tricks.on_cards_played,
		&"passed": tricks.on_passed,
		&"table_cleared": tricks.on_table_cleared,
		&"partner_takes_lead": tricks.on_partner_takes_lead,
		&"cards_left": tricks.on_cards_left,
		&"player_finished": tricks.on_player_finished,
		&"deal_ended": results.on_deal_ended,
		&"surrender_proposed": results.on_surrender,
		&"surrender_voted": results.on_surrender,
		&"match_ended": results.on_match_ended,
		&"ai_thinking": tricks.on_ai_thinking,
		&"ai_decided": tricks.on_ai_decided,
		&"turn_timed_out": tricks.on_turn_timed_out,
		&"controller_changed": tricks.on_controller_changed,
		&"error": _on_error,
		&"crashed": _on_crashed,
	}


func _exit_tree() -> void:
	closing = true
	for t in [_wait_tween, _shake_tween]:
		if t != null:
			t.kill()
	_queue.clear()
	_waited.emit()


func enqueue(event: MatchEvent) -> void:
	event.received_ms = Time.get_ticks_msec()
	_queue.append(event)
	table.controller.set_paused(true)
	if not _draining:
		_drain()


## True while events wait to be shown (or one is being shown).
func busy() -> bool:
	return _draining or not _queue.is_empty()


func _drain() -> void:
	_draining = true
	table.lock_input(true)
	while not _queue.is_empty():
		var event: MatchEvent = _queue.pop_front()
		_showing_received_ms = event.received_ms
		var handler: Callable = handlers.get(event.signal_name, Callable())
		instant = event.restoring
		table.zone.still = instant
		table.event_shown.emit(event)
		results.tally.note(event)
		if handler.is_valid():
			await handler.call(event)
		else:
			push_warning("TableEvents: no handler for %s" % event.signal_name)
		if closing:
			return
		table.event_handled.emit(event)
	instant = false
	_showing_received_ms = -1
	table.zone.still = false
	_draining = false
	if not table.modal.is_open():
		table.controller.set_paused(false)
		table.lock_input(false)
	table.refresh_controls()
	table.became_idle.emit()


func _on_error(e: ErrorEvent) -> void:
	table.show_error(e.code)


func _on_crashed(e: CrashedEvent) -> void:
	await table.show_crash(e.report)


## How long ago the event on screen (or else the first waiting) was received, in seconds (0:
## none): how far the table is behind what it was told (SessionInvariants' lag rule).
func oldest_age_s() -> float:
	var ms := _showing_received_ms
	if ms < 0 and not _queue.is_empty():
		ms = _queue[0].received_ms
	return (Time.get_ticks_msec() - ms) / 1000.0 if ms >= 0 else 0.0


## Least seconds a play stays on screen before the next event (the pacing profile at the
## player's animation speed; 0 with animations off).
func min_visible_time() -> float:
	return PacingProfile.scaled(table.pacing.min_play_visible_s)


## Actions waiting in the queue behind the event being shown: online the server does not wait
## for the table (offline the engine does, so there it is at most one).
func actions_queued() -> int:
	var n := 0
	for e in _queue:
		if e.signal_name in ACTION_SIGNALS:
			n += 1
	return n


## Online the server is a deal or more ahead: the next deal (or the match's end) already waits in
## the queue behind the event being shown. The deal's panel then closes soon and its ceremony is
## shortened, so the table never shows a deal while the server plays the next (issue 52: with
## Auto-play on the table ran several deals behind and the room closed before the result).
## The match's end waits in the queue (the deal just ended was its last: no tribute follows).
func match_end_queued() -> bool:
	for e in _queue:
		if e is MatchEndedEvent:
			return true
	return false


func next_deal_queued() -> bool:
	for e in _queue:
		if e is DealStartedEvent or e is MatchEndedEvent:
			return true
	return false


## Online, a deal's end waiting in the queue: the server's break runs, so the last play and the
## finishing banners before it are shown quickly and the panel gets the break's time.
func _deal_end_waits_online() -> bool:
	for e in _queue:
		if e is DealEndedEvent:
			return table.controller.deal_break_s() > 0.0
	return false


## Waits `seconds` on a tween bound to this node (never resumes if the table is freed); not
## at all while a restored deal is drawn.
func wait(seconds: float) -> void:
	if seconds <= 0.0 or closing or instant:
		return
	if actions_queued() >= CATCH_UP_AFTER or _deal_end_waits_online() or next_deal_queued():
		seconds *= CATCH_UP_SCALE
		catch_up_waits += 1
	var until := Time.get_ticks_usec() + int(seconds * 1e6)
	_wait_tween = create_tween()
	_wait_tween.tween_interval(seconds)
	_wait_tween.tween_callback(_waited.emit)
	await _waited
	# A tween made during a frame is stepped by that whole frame's time, part of it from before it
	# began, so it can end a frame or two early: the rest of the promised time is waited in frames.
	while not closing and is_inside_tree() and Time.get_ticks_usec() < until:
		await get_tree().process_frame


## Holds the table's flow for a big moment: the event being shown ends `seconds` later (a wait;
## none while a restored deal is drawn, shortened while catching up with a server).
func freeze(seconds: float) -> void:
	last_freeze_s = seconds
	if seconds <= 0.0 or closing or instant:
		return
	frozen = true
	await wait(seconds)
	frozen = false


## A sound, except while a restored deal is drawn.
func sfx(sound: StringName) -> void:
	if not instant:
		Sfx.play(sound)


## A banner, except while a restored deal is drawn (the live table's banners were long gone).
func announce(text: String, hold_s: float) -> void:
	if not instant:
		table.banner.announce(text, hold_s)


## Shakes the table around its resting place: the frame's position inside its SafeArea (the
## container's margins), read at every step, so the shake ends where the container put the
## frame even if the window was resized meanwhile.
func shake(strength: float) -> void:
	if not Settings.effects_on() or instant:
		return
	if _shake_tween != null:
		_shake_tween.kill()
	_shake_tween = create_tween()
	for i in 6:
		var off := Vector2(randf_range(-1, 1), randf_range(-1, 1)) * strength * (1.0 - i / 6.0)
		_shake_tween.tween_callback(_shake_to.bind(off))
		_shake_tween.tween_interval(0.04)
	_shake_tween.tween_callback(_shake_to.bind(Vector2.ZERO))


func _shake_to(offset: Vector2) -> void:
	var frame: Control = table.frame
	frame.position = frame_rest_position() + offset


## Where the frame sits when the table is still: its SafeArea's left and top margins.
func frame_rest_position() -> Vector2:
	var safe: MarginContainer = table.frame.get_parent()
	return Vector2(safe.get_theme_constant(&"margin_left"), safe.get_theme_constant(&"margin_top"))
