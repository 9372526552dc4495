class_name TributeEvents
extends TableEventPart
## The tribute and the return of a deal on the table: the phases (the player's duty when it is
## theirs), each card moving from seat to seat, and their lines in the side row and the history.

## This deal's tribute (or resistance) has been shown (reset when a deal starts).
var shown := false


func on_tribute_phase(e: TributePhaseEvent) -> void:
	var payers := e.payers
	if shown:
		# Announced again (the player took the seat back from auto-play): the duty only.
		if not e.resisted and not table.spectator and table.local_seat in payers:
			table.begin_duty(&"tribute")
		return
	shown = true
	var text := Wording.tribute_phase(e.resisted, payers, table.local_seat, table.spectator)
	table.tribute_panel.add_line(text)
	table.history.add_note(text)
	announce(text, table.pacing.banner_hold_s)
	sfx(&"tribute")
	await wait(Settings.anim_time(0.6))
	if closing:
		return
	if not e.resisted and not table.spectator and table.local_seat in payers:
		table.begin_duty(&"tribute")


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
