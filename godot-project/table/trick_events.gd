class_name TrickEvents
extends TableEventPart
## The play of a deal on the table: whose turn it is, each play and pass (with its word-art, sound
## and shake), the trick gathered when the table clears, cards left and players going out, and the
## seats' AI (thinking, auto-play, a timeout the engine acted on).

## The player's clock ran out: the next pass or play of their seat says what was done for them.
var _timed_out := false


func on_turn_started(e: TurnStartedEvent) -> void:
	table.start_turn(e.seat, e.can_pass, e.time_limit)


func on_cards_played(e: CardsPlayedEvent) -> void:
	var seat := e.seat
	var play: Play = e.play
	var ids := play.cards
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
	table.history.level = table.level
	_history_face(seat)
	table.history.add(seat, play)
	table.table_play = play
	table.table_play_seat = seat
	var t: float = table.zone.show_play(seat, ids, from, views, table.level, play)
	if seat == table.local_seat and _timed_out:
		_timed_out = false
		table.toast(Wording.timed_out(false, PlayText.describe(play)))
	var type := play.kind
	if type == "FourKings":
		sfx(&"four_jokers")
	elif play.bomb:
		sfx(&"bomb")
	else:
		sfx(&"play")
	table.training.on_cards_played(seat)
	# Every play stays readable for a moment before the next event is drawn; a bomb for as long
	# as its banner too (the next pass would take the banner down).
	var hold := events.min_visible_time()
	if play.bomb:
		hold = maxf(hold, PacingProfile.scaled(table.pacing.banner_hold_s))
	# When the play lands it names itself beside its cards (clear of the seats, chips, plaque and
	# the other plays); a bomb's flash, shockwave and sparks
	# grow with its size and so does its shake (TableStyle "Moments"; low-performance mode: the
	# word only).
	if not instant:
		if t > 0.0:
			await wait(t)
			if closing:
				return
		var shake: float = table.name_play(seat, play)
		if shake > 0.0:
			events.shake(shake)
		# A big moment (a big bomb, a straight flush, four jokers) holds the table's flow.
		if table.moments.freeze_s > 0.0:
			await events.freeze(table.moments.freeze_s)
			if closing:
				return
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


func on_passed(e: PassedEvent) -> void:
	var seat := e.seat
	table.banner.dismiss()
	table.zone.show_pass(seat)
	_history_face(seat)
	table.history.add(seat, null)
	_turn_done(seat)
	sfx(&"pass")
	if seat == table.local_seat:
		table.end_duty()
		if _timed_out:
			_timed_out = false
			table.toast(Wording.timed_out(true))
	await wait(events.min_visible_time() * table.pacing.pass_visible_share)


func on_table_cleared(e: TableClearedEvent) -> void:
	await _clear_table(e.leader, false)


func on_partner_takes_lead(e: PartnerTakesLeadEvent) -> void:
	await _clear_table(e.seat, true)


func _clear_table(leader: int, partner: bool) -> void:
	table.table_play = null
	table.table_play_seat = -1
	var t: float = table.zone.gather(table.middle.get_center())
	sfx(&"table_cleared")
	table.history.new_round()
	announce(Wording.lead(partner, leader, table.local_seat, table.spectator), table.pacing.banner_hold_s)
	await wait(maxf(t, Settings.anim_time(0.5)))


func on_cards_left(e: CardsLeftEvent) -> void:
	var seat := e.seat
	table.counts[seat] = e.count
	table.badges[seat].warn_at = maxi(table.badges[seat].warn_at, 0)
	table.update_counts()


func on_player_finished(e: PlayerFinishedEvent) -> void:
	var seat := e.seat
	var place := e.place
	table.places[seat] = place
	table.badges[seat].place = place
	table.counts[seat] = 0
	table.update_counts()
	announce(Wording.finished(seat, place, table.local_seat, table.spectator), table.pacing.banner_hold_s)
	await wait(Settings.anim_time(0.5))


func on_ai_thinking(e: AiThinkingEvent) -> void:
	table.badges[e.seat].thinking = true


func on_ai_decided(e: AiDecidedEvent) -> void:
	table.badges[e.seat].thinking = false
	table.training.on_ai_decided(e.seat)


func on_turn_timed_out(e: TurnTimedOutEvent) -> void:
	if e.seat == table.local_seat:
		_timed_out = true


func on_controller_changed(e: ControllerChangedEvent) -> void:
	var seat := e.seat
	if not e.ai:
		# Taken back from the AI while it was thinking (issue 38: auto-play off as the player's
		# tribute began): its answer is dropped, so no ai_decided comes to say it stopped.
		table.badges[seat].thinking = false
	if seat == table.local_seat and not table.spectator:
		table.show_auto_play(e.ai)
	else:
		table.badges[seat].auto_play = e.ai


## The history's row for `seat` shows the seat's own portrait.
func _history_face(seat: int) -> void:
	var face: SeatAvatar = (table.badges[seat] as SeatBadge).avatar()
	table.history.set_face(seat, face.face_key, face.ai)
