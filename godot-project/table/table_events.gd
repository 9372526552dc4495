class_name TableEvents
extends Node
## The table's event queue and its handlers. Engine events arrive from the MatchController as
## dictionaries and are handled strictly one after another: each handler may animate, and while
## the queue is not empty the engine is paused and the hand's input is locked. So fast AI turns
## never overlap on screen and the turn clock only runs when the table is idle.
##
## Every GuandanEngine signal has exactly one handler in `handlers` (tests/godot/ui/test_boundary.gd
## checks the table against ClassDB, so a new engine signal cannot be forgotten here).

## How long the "Deal 2 · playing 3" banner holds.
const DEAL_BANNER_S := 0.9
## Online the server moves on at its own pace (an AI action a second), and a trick's end takes the
## table longer than that to show: when the table is this many actions behind, its waits shrink to
## CATCH_UP_SCALE of their length until it has caught up (before, it fell seconds behind in a deal
## and showed the deal's end panel only once the next deal had begun on the server).
const CATCH_UP_AFTER := 2
const CATCH_UP_SCALE := 0.3
const ACTION_SIGNALS: Array[StringName] = [&"cards_played", &"passed", &"tribute_given", &"card_returned"]
## Online, the least time the deal-end panel stays up (when the table shows it after the server's
## break has mostly run).
const MIN_BREAK_PANEL_S := 3.0

## Emitted by the tween `wait` runs (and on leaving the tree, to release a waiting handler).
signal _waited

var table: Control  # table.gd

var _queue: Array[MatchEvent] = []
var _draining := false
var _fresh_deal := false
## Card backs flying to the other seats while a deal is dealt (made on first use).
var _deal_flight: DealFlight
var _wait_tween: Tween
var _shake_tween: Tween
## The player's clock ran out: the next pass or play of their seat says what was done for them.
var _timed_out := false
## Set when the table leaves the tree: coroutines waiting on a tween or a panel are released
## and stop at their next check, so none outlives the table.
var _closing := false
## The event being shown is part of a restored deal (`restoring` in the event: Continue, or the
## resume after a crash, replays the deal so far): drawn at once — no animation, wait, sound,
## banner or shake — so the table ends up exactly as it was when the match was left.
var instant := false
## This deal's tribute (or resistance) has been shown.
var _tribute_shown := false
## Waits shortened to catch up with a server ahead of the table (see CATCH_UP_AFTER).
var catch_up_waits := 0
## A match or a position was just announced: the next deal_started takes the levels from the state.
var _levels_from_state := false
## Engine signal -> the handler that shows its event (it may await). Method references, not
## names: the parser checks each one, so a renamed or missing handler fails to compile instead of
## being skipped at run time. Built in _init because a Callable needs this instance.
var handlers: Dictionary[StringName, Callable] = {}


func _init() -> void:
	handlers = {
		&"match_started": _on_match_started,
		&"viewer_changed": _on_viewer_changed,
		&"deal_started": _on_deal_started,
		&"hand_changed": _on_hand_changed,
		&"tribute_phase": _on_tribute_phase,
		&"tribute_given": _on_tribute_given,
		&"return_phase": _on_return_phase,
		&"card_returned": _on_card_returned,
		&"turn_started": _on_turn_started,
		&"cards_played": _on_cards_played,
		&"passed": _on_passed,
		&"table_cleared": _on_table_cleared,
		&"partner_takes_lead": _on_partner_takes_lead,
		&"cards_left": _on_cards_left,
		&"player_finished": _on_player_finished,
		&"deal_ended": _on_deal_ended,
		&"surrender_proposed": _on_surrender,
		&"surrender_voted": _on_surrender,
		&"match_ended": _on_match_ended,
		&"ai_thinking": _on_ai_thinking,
		&"ai_decided": _on_ai_decided,
		&"turn_timed_out": _on_turn_timed_out,
		&"error": _on_error,
		&"controller_changed": _on_controller_changed,
		&"crashed": _on_crashed,
	}


func _exit_tree() -> void:
	_closing = true
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
		var handler: Callable = handlers.get(event.signal_name, Callable())
		instant = event.restoring
		table.zone.still = instant
		table.event_shown.emit(event)
		if handler.is_valid():
			await handler.call(event)
		else:
			push_warning("TableEvents: no handler for %s" % event.signal_name)
		if _closing:
			return
		table.event_handled.emit(event)
	instant = false
	table.zone.still = false
	_draining = false
	if not table.modal.is_open():
		table.controller.set_paused(false)
		table.lock_input(false)
	table.refresh_controls()
	table.became_idle.emit()


# --- handlers (one per engine signal) ------------------------------------------------------------

func _on_match_started(e: MatchStartedEvent) -> void:
	_levels_from_state = true
	table.local_seat = e.local_seat
	table.spectator = table.local_seat < 0
	table.match_over = false
	table.badges[0].ai_level = table.config.human_seat_level if table.spectator else 0
	for b: SeatBadge in table.badges:
		b.spectator = table.spectator
	table.history.spectator = table.spectator
	table.history.local_seat = table.local_seat


func _on_viewer_changed(e: ViewerChangedEvent) -> void:
	# Hot-seat: the engine now acts for (and shows the hand of) another human seat.
	table.local_seat = e.seat
	table.history.local_seat = table.local_seat


func _on_deal_started(e: DealStartedEvent) -> void:
	table.deal_no = e.deal_no
	table.level = e.level
	table.declarer = e.declarer
	# The levels the last deal_ended left (online the live state may be deals ahead of the table:
	# issue 24, "Playing 5" shown for a deal played at 3); the state's when a match or a
	# position (resume, reconnect) was just announced.
	if _levels_from_state or instant:
		_levels_from_state = false
		var st: Dictionary = table.controller.state()
		if st.has("team_levels"):
			table.team_levels = PackedInt32Array(st.team_levels)
	table.zone.reset()
	table.history.clear()
	table.tribute_panel.clear()
	table.places = PackedInt32Array([0, 0, 0, 0])
	table.table_play = {}
	table.table_play_seat = -1
	# Nobody's turn until the first play of this deal is due (the last deal's turn is over).
	table.turn_seat = -1
	table.can_pass = false
	_tribute_shown = false
	table.counts = PackedInt32Array([27, 27, 27, 27])
	for seat in 4:
		table.badges[seat].place = 0
		table.badges[seat].thinking = false
		table.badges[seat].active = false
	table.update_counts()
	table.hand.clear()
	table.hand.set_level(table.level)
	table.duty = &""
	_fresh_deal = true
	table.update_top_bar()
	_announce(tr("DEAL_START_FMT").format({n = table.deal_no + 1, level = Cards.rank_label(table.level)}), DEAL_BANNER_S)
	if table.spectator:
		await _show_hand(table.controller.seat_hand(0))


func _on_hand_changed(e: HandChangedEvent) -> void:
	await _show_hand(e.hand)


func _show_hand(ids: PackedInt32Array) -> void:
	if _fresh_deal and instant:
		_fresh_deal = false
		table.hand.set_cards(ids)
	elif _fresh_deal:
		_fresh_deal = false
		# A table that has just opened is laid out a frame or two after its first deal starts:
		# deal into the laid-out table (a layout mid-deal would put the flying cards down at once).
		for i in 10:
			if (table.middle as Rect2).size.x > 0.0:
				break
			# Through wait() (a frame): leaving the tree releases it at once, so no coroutine is
			# left waiting on the tree for a table that is gone.
			await wait(0.001)
			if _closing:
				return
		var center: Vector2 = table.frame.global_position + table.middle.get_center()
		# Round the table: the player's card every fourth, backs to the other seats between.
		var gap := Settings.anim_time(table.pacing.deal_card_gap_s) if Settings.animations_on() else 0.0
		var backs := _deal_to_others(ids.size(), gap)
		var stagger := gap * (backs + 1)
		table.hand.set_cards(ids, center, stagger)
		var t := Settings.anim_time(table.pacing.deal_s) + stagger * ids.size()
		if backs > 0:
			t = maxf(t, _deal_flight.duration())
		_deal_sounds(ids.size())
		# The new deal (its banner, the dealt hand) is seen before anyone plays (issue 24: three
		# AI plays came within ~3 s of the table opening).
		await wait(maxf(t, PacingProfile.scaled(DEAL_BANNER_S + 0.2)))
		if _closing:
			return
	else:
		table.hand.set_cards(ids)
	table.counts[0 if table.spectator else table.local_seat] = ids.size()
	table.update_counts()
	table.training.on_hand_changed()


## Backs flying to the seats other than the player's at the start of a deal; returns how many
## seats they go to (0 when animations are off, in low-performance mode or without a gap).
func _deal_to_others(rounds: int, gap: float) -> int:
	if gap <= 0.0 or Settings.get_value(&"low_perf"):
		return 0
	if _deal_flight == null:
		_deal_flight = DealFlight.new()
		_deal_flight.name = "DealFlight"
		_deal_flight.z_index = 300
		table.add_child(_deal_flight)
	_deal_flight.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var flight := _deal_flight
	var from := func() -> Vector2:
		return flight.get_global_transform().affine_inverse() * (table.frame.global_position + table.middle.get_center())
	var targets: Array[Callable] = []
	for k in range(1, 4):
		var seat: int = (table.local_seat + k) % 4
		targets.append(func() -> Vector2: return flight.get_global_transform().affine_inverse() * table.seat_anchor(seat))
	_deal_flight.begin(from, targets, rounds, gap, 4, table.zone.card_size() * 0.8, table.pacing.flight_arc)
	return targets.size()


func _on_tribute_phase(e: TributePhaseEvent) -> void:
	var payers := e.payers
	if _tribute_shown:
		# Announced again (the player took the seat back from auto-play): the duty only.
		if not e.resisted and not table.spectator and table.local_seat in payers:
			table.begin_duty(&"tribute")
		return
	_tribute_shown = true
	var text := Wording.tribute_phase(e.resisted, payers, table.local_seat, table.spectator)
	table.tribute_panel.add_line(text)
	table.history.add_note(text)
	_announce(text, table.pacing.banner_hold_s)
	_sfx(&"tribute")
	await wait(Settings.anim_time(0.6))
	if _closing:
		return
	if not e.resisted and not table.spectator and table.local_seat in payers:
		table.begin_duty(&"tribute")


func _on_tribute_given(e: TributeGivenEvent) -> void:
	await _exchange(e.from, e.to, e.card, true)


func _on_return_phase(e: ReturnPhaseEvent) -> void:
	var receivers := e.receivers
	if not table.spectator and table.local_seat in receivers:
		table.begin_duty(&"return")


func _on_card_returned(e: CardReturnedEvent) -> void:
	await _exchange(e.from, e.to, e.card, false)


## A tribute (or a return) moves from one seat to another; `card` -1 = not shown to us.
func _exchange(from: int, to: int, card: int, is_tribute: bool) -> void:
	var what := PlayText.card_text(card) if card >= 0 else tr("A_CARD")
	var line := Wording.exchange(is_tribute, from, to, table.local_seat, table.spectator, what)
	table.tribute_panel.add_line(line, not is_tribute)
	table.history.add_note(line)
	if from == table.local_seat or to == table.local_seat:
		if from == table.local_seat:
			table.end_duty()
		table.refresh_controls()
	var t := 0.0 if instant else Settings.anim_time(table.pacing.exchange_s)
	if t <= 0.0:
		return
	var start: Vector2 = table.seat_anchor(from)
	var end: Vector2 = table.seat_anchor(to)
	var layer: CardLayer = table.layer
	var flying_back: CardView = table.flying_back
	var view: CardView
	if card >= 0 and not layer.is_shown(card):
		view = layer.view_for(card)
		view.level = table.level
	else:
		view = flying_back
		view.visible = true
	view.z_index = 450
	view.size = table.zone.card_size()
	view.position = layer.to_layer(start) - view.size / 2.0
	CardFlight.fly(view, view.new_tween(), layer.to_layer(end) - view.size / 2.0, t, table.pacing)
	_sfx(&"deal")
	await wait(t + 0.05)
	if _closing:
		return
	if view == flying_back:
		flying_back.visible = false
	elif card >= 0 and not (card in table.hand.cards()):
		layer.release(card)
	# The line must be readable before the next exchange or the first play.
	await wait(PacingProfile.scaled(table.pacing.min_play_visible_s) - t)


func _on_turn_started(e: TurnStartedEvent) -> void:
	table.start_turn(e.seat, e.can_pass, e.time_limit)


func _on_cards_played(e: CardsPlayedEvent) -> void:
	var seat := e.seat
	var play: Dictionary = e.play
	var ids := PackedInt32Array(play.get("cards", PackedInt32Array()))
	var views: Array[CardView] = []
	var from: Vector2 = table.seat_anchor(seat)
	if (seat == table.local_seat and not table.spectator) or (table.spectator and seat == 0):
		views = table.hand.detach(ids)
		if seat == table.local_seat:
			table.end_duty()
	table.counts[seat] = maxi(table.counts[seat] - ids.size(), 0)
	table.update_counts()
	_turn_done(seat)
	# The first play takes the side row: the tribute lines stay in the history.
	table.tribute_panel.clear()
	table.banner.dismiss()
	table.history.add(seat, play)
	table.table_play = play
	table.table_play_seat = seat
	var t: float = table.zone.show_play(seat, ids, from, views, table.level)
	if seat == table.local_seat and _timed_out:
		_timed_out = false
		table.toast(Wording.timed_out(false, PlayText.describe(play)))
	var type := String(play.get("type", ""))
	if type == "FourKings":
		_sfx(&"four_jokers")
	elif bool(play.get("bomb", false)):
		_sfx(&"bomb")
	else:
		_sfx(&"play")
	table.training.on_cards_played(seat)
	# Every play stays readable for a moment before the next event is drawn; a bomb for as long
	# as its banner too (the next pass would take the banner down).
	var hold := min_visible_time()
	if bool(play.get("bomb", false)):
		hold = maxf(hold, PacingProfile.scaled(table.pacing.banner_hold_s))
	# When the play lands it names itself over its cards; a bomb's flash, shockwave and sparks
	# grow with its size and so does its shake (TableStyle "Moments"; low-performance mode: the
	# word only).
	if not instant:
		if t > 0.0:
			await wait(t)
			if _closing:
				return
		var moments: Moments = table.moments
		var at: Rect2 = table.zone.group_rect(seat)
		if at.size == Vector2.ZERO:
			at = Rect2(table.zone.get_global_transform() * table.zone.slot_rects[seat].position, table.zone.slot_rects[seat].size)
		var shake := moments.on_play(play, moments.get_global_transform().affine_inverse() * at)
		if shake > 0.0:
			_shake(shake)
		hold -= t
		t = 0.0
	await wait(maxf(t, hold))


## `seat` has played or passed: its turn is over on screen at once (its badge no longer lit, the
## status line no longer waiting for it) while the play stays readable; the next turn_started
## lights the next seat.
func _turn_done(seat: int) -> void:
	table.badges[seat].thinking = false
	if table.turn_seat == seat:
		table.turn_seat = -1
		table.badges[seat].active = false
		table.badges[seat].set_countdown(0.0)
	table.refresh_controls()


## Least seconds a play stays on screen before the next event (the pacing profile at the
## player's animation speed; 0 with animations off).
func min_visible_time() -> float:
	return PacingProfile.scaled(table.pacing.min_play_visible_s)


func _on_passed(e: PassedEvent) -> void:
	var seat := e.seat
	table.banner.dismiss()
	table.zone.show_pass(seat)
	table.history.add(seat, {})
	_turn_done(seat)
	_sfx(&"pass")
	if seat == table.local_seat:
		table.end_duty()
		if _timed_out:
			_timed_out = false
			table.toast(Wording.timed_out(true))
	await wait(min_visible_time() * table.pacing.pass_visible_share)


func _on_table_cleared(e: TableClearedEvent) -> void:
	await _clear_table(e.leader, false)


func _on_partner_takes_lead(e: PartnerTakesLeadEvent) -> void:
	await _clear_table(e.seat, true)


func _clear_table(leader: int, partner: bool) -> void:
	table.table_play = {}
	table.table_play_seat = -1
	var t: float = table.zone.gather(table.middle.get_center())
	_sfx(&"table_cleared")
	table.history.new_round()
	_announce(Wording.lead(partner, leader, table.local_seat, table.spectator), table.pacing.banner_hold_s)
	await wait(maxf(t, Settings.anim_time(0.5)))


func _on_cards_left(e: CardsLeftEvent) -> void:
	var seat := e.seat
	table.counts[seat] = e.count
	table.badges[seat].warn_at = maxi(table.badges[seat].warn_at, 0)
	table.update_counts()


func _on_player_finished(e: PlayerFinishedEvent) -> void:
	var seat := e.seat
	var place := e.place
	table.places[seat] = place
	table.badges[seat].place = place
	table.counts[seat] = 0
	table.update_counts()
	_announce(Wording.finished(seat, place, table.local_seat, table.spectator), table.pacing.banner_hold_s)
	await wait(Settings.anim_time(0.5))


func _on_deal_ended(e: DealEndedEvent) -> void:
	table.end_duty()
	for b: SeatBadge in table.badges:
		b.active = false
		b.set_countdown(0.0)
	var order := e.order
	var changes: Dictionary = e.level_changes
	var before := PackedInt32Array(changes.get("before", table.team_levels))
	var after := PackedInt32Array(changes.get("after", table.team_levels))
	table.team_levels = after
	table.update_top_bar()
	var winner := int(changes.get("winner_team", -1))
	var places := PackedStringArray()
	for i in order.size():
		places.append("%s  %s" % [UiKit.place_text(i + 1), Wording.seat_name(order[i], table.local_seat, table.spectator)])
	var levels := PackedStringArray()
	for team in 2:
		var delta := after[team] - before[team]
		levels.append(tr("LEVEL_CHANGE_FMT").format({team = Wording.team(team, table.spectator),
			before = Cards.rank_label(before[team]), after = Cards.rank_label(after[team]),
			delta = ("+%d" % delta) if delta > 0 else ("%d" % delta) if delta < 0 else "±0"}))
	# The cards the players who did not go out were left with, face up.
	var left: Array = table.controller.hands_at_end_of_deal(table.deal_no)
	var rows: Array[Control] = []
	for seat in 4:
		if table.places[seat] == 0 and seat < left.size() and not PackedInt32Array(left[seat]).is_empty():
			rows.append(cards_left_row(seat, PackedInt32Array(left[seat])))
	var body := DealEndPanel.create()
	body.fill(places, levels, rows)
	var finishers: Array[Dictionary] = []
	for i in order.size():
		var badge: SeatBadge = table.badges[order[i]]
		finishers.append({seat = order[i], name = Wording.seat_name(order[i], table.local_seat, table.spectator), place = i + 1,
			ai = badge.ai_level > 0, face_key = badge.avatar().face_key})
	var tiles: Array[LevelTile] = []
	for team in 2:
		tiles.append(LevelTile.create(Wording.team(team, table.spectator), SeatStyle.current().team_color(team),
			Cards.rank_label(before[team]), Cards.rank_label(after[team]), after[team] - before[team]))
	var double_down := order.size() >= 2 and order[0] % 2 == order[1] % 2
	body.ceremony(finishers, tiles, tr("DOUBLE_DOWN_BANNER") if double_down else "", table.pacing)
	var my_team: int = 0 if table.spectator else table.local_seat % 2
	var title := Wording.winner("DEAL_WON", "DEAL_LOST", "DEAL_WON_BY_FMT", winner, my_team, table.spectator)
	if winner == my_team and not table.spectator:
		_sfx(&"win")
	table.last_record = table.controller.save_record()
	var buttons: Array = [[&"next", "BTN_NEXT_DEAL"]]
	if table.auto_play and not table.spectator:
		# The Auto-play switch is behind the panel: the player takes the seat back here, before the
		# next deal's tribute or return is chosen for them.
		buttons.append([&"myself", "BTN_NEXT_DEAL_MYSELF"])
	table.modal.open(tr("DEAL_ENDED_FMT").format({n = table.deal_no + 1}) + " — " + title, [body], buttons)
	table.lock_input(true)
	table.refresh_controls()
	var brk: float = table.controller.deal_break_s()
	if brk > 0.0:
		# Online the next deal starts when the server's break is over, panel or not: the panel
		# closes then (a table that shows it late still shows it a moment).
		var late := (Time.get_ticks_msec() - e.received_ms) / 1000.0 if e.received_ms > 0 else 0.0
		table.modal.press_after(&"next", maxf(brk - late, MIN_BREAK_PANEL_S))
	table.deal_panel_shown.emit(e)
	var choice: StringName = await table.modal.closed
	if _closing:
		return
	if choice == &"myself" and table.auto_play:
		var code: int = table.controller.set_auto_play(false)
		if code != 0:
			table.show_error(code)


## "West still held:" and the cards (table/cards_left_row.tscn).
func cards_left_row(seat: int, ids: PackedInt32Array) -> Control:
	var who := tr("CARDS_LEFT_FMT").format({seat = Wording.seat_name(seat, table.local_seat, table.spectator)})
	return CardsLeftRow.create(seat, who, ids, table.level)


func _on_surrender(_e: MatchEvent) -> void:
	pass  # The match ends right after (AI seats accept at once); match_ended shows the result.


func _on_match_ended(e: MatchEndedEvent) -> void:
	table.match_over = true
	table.controller.forget_own_continue()
	# Nobody is to act any more: no duty, no turn clock, no lit badge (a surrender can end the
	# match in the middle of someone's turn).
	table.end_duty()
	table.turn_seat = -1
	for b in table.badges:
		b.active = false
		b.set_countdown(0.0)
	var winner := e.winner_team
	var my_team: int = 0 if table.spectator else table.local_seat % 2
	var title: String
	if winner < 0:
		title = tr("MATCH_DRAW")
	else:
		title = Wording.winner("MATCH_WON", "MATCH_LOST", "MATCH_WON_BY_FMT", winner, my_team, table.spectator)
		if winner == my_team and not table.spectator:
			_sfx(&"win")
	table.last_record = table.controller.save_record()
	var body := MatchEndPanel.create()
	body.fill(tr("MATCH_REASON_" + e.reason.to_upper()),
		Wording.levels("FINAL_LEVELS_FMT", "FINAL_LEVELS_SPECTATOR_FMT", table.team_levels, table.spectator))
	var buttons: Array = []
	if table.last_record != "":
		buttons.append([&"replay", "BTN_WATCH_REPLAY"])
	buttons.append([&"again", "BTN_PLAY_AGAIN"])
	buttons.append([&"menu", "BTN_MENU"])
	table.modal.open(title, [body], buttons)
	table.lock_input(true)
	table.match_panel_shown.emit(e)
	var choice: StringName = await table.modal.closed
	if _closing:
		return
	match choice:
		&"replay":
			EventBus.replay_requested.emit(table.last_record)
		&"again":
			EventBus.match_requested.emit(table.config.again())
		_:
			EventBus.screen_requested.emit(&"menu")


func _on_ai_thinking(e: AiThinkingEvent) -> void:
	table.badges[e.seat].thinking = true


func _on_ai_decided(e: AiDecidedEvent) -> void:
	table.badges[e.seat].thinking = false
	table.training.on_ai_decided(e.seat)


func _on_turn_timed_out(e: TurnTimedOutEvent) -> void:
	if e.seat == table.local_seat:
		_timed_out = true


func _on_error(e: ErrorEvent) -> void:
	table.show_error(e.code)


func _on_crashed(e: CrashedEvent) -> void:
	await table.show_crash(e.report)


func _on_controller_changed(e: ControllerChangedEvent) -> void:
	var seat := e.seat
	if seat == table.local_seat and not table.spectator:
		table.show_auto_play(e.ai)
	else:
		table.badges[seat].auto_play = e.ai


# --- animation helpers ---------------------------------------------------------------------------

## Actions waiting in the queue behind the event being shown: online the server does not wait
## for the table (offline the engine does, so there it is at most one).
func actions_queued() -> int:
	var n := 0
	for e in _queue:
		if e.signal_name in ACTION_SIGNALS:
			n += 1
	return n


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
	if seconds <= 0.0 or _closing or instant:
		return
	if actions_queued() >= CATCH_UP_AFTER or _deal_end_waits_online():
		seconds *= CATCH_UP_SCALE
		catch_up_waits += 1
	var until := Time.get_ticks_usec() + int(seconds * 1e6)
	_wait_tween = create_tween()
	_wait_tween.tween_interval(seconds)
	_wait_tween.tween_callback(_waited.emit)
	await _waited
	# A tween made during a frame is stepped by that whole frame's time, part of it from before it
	# began, so it can end a frame or two early: the rest of the promised time is waited in frames.
	while not _closing and is_inside_tree() and Time.get_ticks_usec() < until:
		await get_tree().process_frame


## A sound, except while a restored deal is drawn.
func _sfx(sound: StringName) -> void:
	if not instant:
		Sfx.play(sound)


## A banner, except while a restored deal is drawn (the live table's banners were long gone).
func _announce(text: String, hold_s: float) -> void:
	if not instant:
		table.banner.announce(text, hold_s)


func _deal_sounds(n: int) -> void:
	if not Settings.animations_on():
		Sfx.play(&"deal")
		return
	# A hand of under 3 cards (a rebuild mid-deal) gets one sound: an empty tween errors.
	if n < 3:
		Sfx.play(&"deal")
		return
	var tw := create_tween()
	for i in mini(n / 3, 9):
		tw.tween_callback(Sfx.play.bind(&"deal", randf_range(0.9, 1.1)))
		tw.tween_interval(0.05)


## Shakes the table around its resting place: the frame's position inside its SafeArea (the
## container's margins), read at every step, so the shake ends where the container put the
## frame even if the window was resized meanwhile.
func _shake(strength: float) -> void:
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
