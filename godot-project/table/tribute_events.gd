class_name TributeEvents
extends TableEventPart
## The tribute and the return of a deal on the table: the phases (the player's duty when it is
## theirs), each card moving from seat to seat, and their lines in the side row and the history.

## This deal's tribute (or resistance) has been shown (reset when a deal starts).
var shown := false
## Who pays this deal's tributes, and who receives them (the last deal's first — and second —
## out; empty when the state the table reads is of another deal).
var payers := PackedInt32Array()
var receivers := PackedInt32Array()
## The tribute panel's line for the phase ("You pay a tribute to East"), turned into what the
## player did once they paid ("You paid ♠A to East").
var _phase_line: Label
## The player's tribute card once given (-1 before).
var _paid := -1


func on_tribute_phase(e: TributePhaseEvent) -> void:
	if shown:
		# Announced again (the player took the seat back from auto-play): the duty only.
		if not e.resisted and not table.spectator and table.local_seat in payers:
			table.begin_duty(&"tribute")
		return
	shown = true
	payers = e.payers
	receivers = _receivers(payers.size())
	_paid = -1
	var text := Wording.tribute_phase(e.resisted, payers, table.local_seat, table.spectator, receivers)
	_phase_line = table.tribute_panel.add_line(text)
	table.history.add_note(text)
	announce(text, table.pacing.banner_hold_s)
	sfx(&"tribute")
	await wait(Settings.anim_time(0.6))
	if closing:
		return
	if not e.resisted and not table.spectator and table.local_seat in payers:
		table.begin_duty(&"tribute")


## The last deal's first (and second, for two tributes) out: who receives, when the controller's
## state is of the deal shown.
func _receivers(count: int) -> PackedInt32Array:
	var st: MatchState = table.controller.state() if table.controller != null else null
	if st == null:
		return PackedInt32Array()
	var order := st.last_order
	if st.deal_no != table.deal_no or order.size() < 4:
		return PackedInt32Array()
	return order.slice(0, clampi(count, 1, 2))


## The player gave `card` as tribute (before the engine routes it, with two tributes): the
## phase line says so, and who is still to pay.
func on_you_paid(card: int) -> void:
	_paid = card
	var waiting := payers.duplicate()
	waiting.remove_at(waiting.find(table.local_seat))
	_say_paid(-1, waiting)


func _say_paid(to: int, waiting: PackedInt32Array) -> void:
	if _phase_line != null and is_instance_valid(_phase_line) and not _phase_line.is_queued_for_deletion():
		var text := Wording.tribute_paid(PlayText.card_text(_paid), to, waiting, table.local_seat)
		table.tribute_panel.set_line_text(_phase_line, text)


func on_tribute_given(e: TributeGivenEvent) -> void:
	await _exchange(e.from, e.to, e.card, true)


func on_return_phase(e: ReturnPhaseEvent) -> void:
	var receivers := e.receivers
	if not table.spectator and table.local_seat in receivers:
		table.begin_duty(&"return")


func on_card_returned(e: CardReturnedEvent) -> void:
	await _exchange(e.from, e.to, e.card, false)


## A tribute (or a return) moves from one seat to another; `card` -1 = not shown to us.
func _exchange(from: int, to: int, card: int, is_tribute: bool) -> void:
	var what := PlayText.card_text(card) if card >= 0 else tr("A_CARD")
	var line := Wording.exchange(is_tribute, from, to, table.local_seat, table.spectator, what)
	if is_tribute and from == table.local_seat and not table.spectator and card >= 0:
		# The player's own tribute: the phase line says it ("You paid ♠A to East").
		_paid = card
		_say_paid(to, PackedInt32Array())
	else:
		table.tribute_panel.add_line(line, not is_tribute)
	table.history.add_note(line)
	# The card changes hands: the seats' counts follow (the chaos tour's invariants found a seat
	# one card off for a whole deal after a position restored mid-exchange). An online restored
	# position brings exact counts before its exchanges; an offline one replays the deal from 27.
	if not instant or not table.config.online:
		table.counts[from] = maxi(table.counts[from] - 1, 0)
		table.counts[to] += 1
		table.update_counts()
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
	sfx(&"deal")
	await wait(t + 0.05)
	if closing:
		return
	if view == flying_back:
		flying_back.visible = false
	elif card >= 0 and not (card in table.hand.cards()):
		layer.release(card)
	# The line must be readable before the next exchange or the first play.
	await wait(PacingProfile.scaled(table.pacing.min_play_visible_s) - t)
