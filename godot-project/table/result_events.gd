class_name ResultEvents
extends TableEventPart
## The results on the table: the end of a deal (the ceremony on the table, DealCeremony, then the
## next-deal buttons where the action buttons stand; online they press themselves when the
## server's break is over), a surrender, and the end-of-match panel (watch the replay, play again,
## or the menu). The match's end is a screen over the table (MatchEndPanel): medals per player
## from the tally of the deals shown, the figures of the match, online the rating counted up.

## Online, the least time the deal-end panel stays up (when the table shows it after the server's
## break has mostly run).
const MIN_BREAK_PANEL_S := 3.0
## Online, how long the deal-end panel stays when the next deal is already waiting behind it (the
## table is behind the server): long enough to read who won the deal.
const BEHIND_PANEL_S := 1.5

## The deals' finishing orders and the bombs, as the table showed them (TableEvents feeds it).
var tally := MatchTally.new()
## Online, a ranked match's rating once the server said it (rating, change); -1: none yet.
var rating := -1
var rating_change := 0
## The end-of-match screen while it is up (null otherwise).
var end_panel: MatchEndPanel


func on_deal_ended(e: DealEndedEvent) -> void:
	table.end_duty()
	for b: SeatBadge in table.badges:
		b.active = false
		b.set_countdown(0.0)
	var order := e.order
	var changes := e.level_changes
	var before := changes.before
	var after := changes.after
	table.team_levels = after
	table.update_top_bar()
	var winner := changes.winner_team
	# The ceremony on the table: medals at the seats, the cards left in front of their seats, the
	# plaque's tiles flipping to the new levels; the next-deal buttons after it.
	var left: Array = table.controller.hands_at_end_of_deal(table.deal_no)
	var ceremony_s := DealCeremony.play(table, order, before, left)
	if order.size() >= 2 and order[0] % 2 == order[1] % 2:
		# 双下 is a big moment: across the whole table while the flow holds (low-performance
		# mode: the banner).
		var freeze: float = 0.0 if instant else table.big_moment(tr("DOUBLE_DOWN_BANNER"))
		if freeze > 0.0:
			await events.freeze(freeze)
			if closing:
				return
		else:
			announce(tr("DOUBLE_DOWN_BANNER"), maxf(ceremony_s, table.pacing.banner_hold_s))
	await wait(ceremony_s)
	if closing:
		return
	var my_team: int = 0 if table.spectator else table.local_seat % 2
	if winner == my_team and not table.spectator:
		sfx(&"win")
	table.last_record = table.controller.record.save()
	_listen_for_rating()
	var buttons: Array = [[&"next", "BTN_NEXT_DEAL"]]
	if table.auto_play and not table.spectator:
		# The Auto-play switch is behind the panel: the player takes the seat back here, before the
		# next deal's tribute or return is chosen for them.
		buttons.append([&"myself", "BTN_NEXT_DEAL_MYSELF"])
	if not table.config.online:
		buttons.append([&"review", "BTN_REVIEW"])
	var deal_no := table.deal_no
	open_ceremony(e, deal_no, buttons)
	table.lock_input(true)
	table.refresh_controls()
	var brk: float = table.controller.deal_break_s()
	if table.config.online and events.next_deal_queued():
		table.modal.press_after(&"next", BEHIND_PANEL_S)
	elif brk > 0.0:
		# Online the next deal starts when the server's break is over, panel or not: the panel
		# closes then (a table that shows it late still shows it a moment).
		var late := (Time.get_ticks_msec() - e.received_ms) / 1000.0 if e.received_ms > 0 else 0.0
		table.modal.press_after(&"next", maxf(brk - late, MIN_BREAK_PANEL_S))
	table.deal_panel_shown.emit(e)
	var choice: StringName = await table.modal.closed
	if closing:
		return
	if choice == &"review":
		# The lead's deal review answers it; the next deal waits for the player (offline only).
		table.review_requested_deal.emit(deal_no)
		open_ceremony(e, deal_no, buttons.slice(0, -1))
		choice = await table.modal.closed
		if closing:
			return
	if choice == &"myself" and table.auto_play:
		var code: int = table.controller.set_auto_play(false)
		if code != 0:
			table.show_error(code)


## Opens the ceremony's card for deal `deal_no` (0-based) that `e` ended, with `buttons` [[id,
## label key], …]: on the felt above the action buttons, the table not dimmed.
func open_ceremony(e: DealEndedEvent, deal_no: int, buttons: Array) -> void:
	var my_team: int = 0 if table.spectator else table.local_seat % 2
	var title := Wording.winner("DEAL_WON", "DEAL_LOST", "DEAL_WON_BY_FMT", e.level_changes.winner_team, my_team,
		table.spectator)
	var card := DealCeremonyCard.create(table, e.order, e.level_changes, events.match_end_queued())
	# The card says who won and how: the prompt row's banner under it goes.
	table.banner.dismiss()
	table.modal.open_on_table(tr("DEAL_ENDED_FMT").format({n = deal_no + 1}) + " — " + title, [card], buttons,
		DealCeremony.card_rect(table), &"", true)
	# Placed again once the card has its size (its rect grows up when the card needs it); the
	# table's layout keeps a wide view's side seats clear of it (TableLayout).
	_place_card.call_deferred()
	table._layout_later()


func _place_card() -> void:
	if not closing and table.modal.on_table and table.modal.is_open():
		table.modal.place(DealCeremony.card_rect(table))


## The deal in which the player's team last proposed to surrender (-1: none). Online a team may
## propose once a deal: the pause menu then offers no second one (issue 52: it did, and the
## server's refusal showed as "Error 59").
var proposed_in_deal := -1


func on_surrender(e: MatchEvent) -> void:
	# Offline the match ends right after (AI seats accept at once); match_ended shows the result.
	if e is SurrenderProposedEvent and not table.spectator \
			and (e as SurrenderProposedEvent).seat % 2 == table.local_seat % 2:
		proposed_in_deal = table.deal_no
	_listen_for_rating()


## Whether the player's team may still propose to surrender in this deal.
func may_propose_surrender() -> bool:
	return not table.config.online or proposed_in_deal != table.deal_no


func on_match_ended(e: MatchEndedEvent) -> void:
	table.match_over = true
	table.controller.record.forget_own_continue()
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
			sfx(&"win")
		# The match won is a big moment (for the winners and for spectators), before the panel.
		if (winner == my_team or table.spectator) and not instant:
			var name := Wording.winner("MOMENT_MATCH_WON", "MATCH_LOST", "MOMENT_MATCH_WON_BY_FMT", winner, my_team,
				table.spectator)
			var freeze: float = table.big_moment(name)
			# The player's side: fireworks, and the end screen waits while they are launched.
			if winner == my_team and not table.spectator and table.fireworks() > 0:
				freeze = maxf(freeze, PacingProfile.scaled(table.pacing.fireworks_freeze_s))
			if freeze > 0.0:
				await events.freeze(freeze)
				if closing:
					return
	table.last_record = table.controller.record.save()
	_listen_for_rating()
	var buttons: Array = [[&"again", "BTN_PLAY_AGAIN"], [&"review", "BTN_REVIEW"]]
	if table.last_record != "":
		buttons.append([&"replay", "BTN_WATCH_REPLAY"])
	buttons.append([&"menu", "BTN_MENU"])
	var choice := &"review"
	while choice == &"review":
		open_match_screen(e, title, buttons)
		table.match_panel_shown.emit(e)
		choice = await table.modal.closed
		end_panel = null
		if closing:
			return
		if choice == &"review":
			# The lead's match review answers it; the end screen stands again behind it.
			table.review_requested.emit()
	match choice:
		&"replay":
			EventBus.replay_requested.emit(table.last_record)
		&"again":
			EventBus.match_requested.emit(table.config.again())
		_:
			EventBus.screen_requested.emit(&"menu")


## Opens the end-of-match screen for `e` (title translated; `buttons` as Modal.open takes them).
func open_match_screen(e: MatchEndedEvent, title: String, buttons: Array) -> void:
	var body := MatchEndPanel.create()
	body.fill(tr("MATCH_REASON_" + e.reason.to_upper()),
		Wording.levels("FINAL_LEVELS_FMT", "FINAL_LEVELS_SPECTATOR_FMT", table.team_levels, table.spectator))
	body.show_match(table, tally)
	table.modal.open_screen(title, [body], buttons)
	table.lock_input(true)
	end_panel = body
	if rating >= 0:
		body.show_rating(rating, rating_change, instant)


## Online: the server's word on a ranked match's rating, kept for the end screen (it may come
## before the table shows the match's end).
func _listen_for_rating() -> void:
	if not table.config.online or Online.client == null or Online.client.rating_changed.is_connected(_on_rating):
		return
	Online.client.rating_changed.connect(_on_rating)


func _on_rating(_rules: String, new_rating: int, change: int, _matches: int) -> void:
	take_rating(new_rating, change)


## A ranked match's rating (the server's word, or the profile's when the player missed it).
func take_rating(new_rating: int, change: int) -> void:
	rating = new_rating
	rating_change = change
	if end_panel != null and is_instance_valid(end_panel):
		end_panel.show_rating(rating, rating_change, false)
