class_name PlayerDuty
extends RefCounted
## What the player must do now and how the table shows it: a turn, a tribute or a return starts
## (the clock runs, the buttons come), it ends, auto-play takes the seat; the action bar's buttons
## and the status line follow the duty. The state (duty, turn_seat, can_pass, auto_play) stays on
## the table, where the events and the tests read it.

var table: Table


func _init(owner_table: Table) -> void:
	table = owner_table


func begin(what: StringName) -> void:
	if table.auto_play:
		return
	var controller: MatchController = table.controller
	var hand: HandView = table.hand
	table.duty = what
	controller.prompt_seen()
	hand.clear_selection()
	table.training.on_duty(what)
	match what:
		&"tribute":
			hand.set_hinted(controller.tribute_options())
		&"return":
			hand.set_hinted(controller.return_options())
	if what != &"play":
		# A tribute or return is the player's turn too: their seat is lit (the gold frame) and
		# has the turn's time (the engine's clock, which waited while the table drew the deal).
		(table.badges[table.local_seat] as SeatBadge).active = true
		var left := controller.time_left()
		(table.clock as TurnClock).start(int(left * 1000.0) if left > 0.0 else 0)
		if (table.my_countdown as Control).visible and not (table.events as TableEvents).instant:
			Sfx.play(&"your_turn")
	table.refresh_controls()


func end() -> void:
	table.duty = &""
	(table.my_countdown as Control).visible = false
	# A tribute's or a return's light goes with it (a turn's goes when the seat has played).
	if table.turn_seat != table.local_seat:
		(table.badges[table.local_seat] as SeatBadge).active = false


func start_turn(seat: int, pass_ok: bool, time_limit: float) -> void:
	table.turn_seat = seat
	table.can_pass = pass_ok
	# The seat acts again: its "Pass" from the last time round is stale.
	(table.zone as PlayZone).clear_pass(seat)
	var local_seat: int = table.local_seat
	for s in 4:
		var badge: SeatBadge = table.badges[s]
		badge.active = s == seat
		badge.set_countdown(time_limit if s == seat and s != local_seat else 0.0)
	if seat == local_seat and not table.spectator and not table.auto_play:
		begin(&"play")
		(table.clock as TurnClock).start(int(time_limit * 1000.0))
		Sfx.play(&"your_turn")
	else:
		(table.my_countdown as Control).visible = false
		if table.duty == &"play":
			table.duty = &""
	table.refresh_controls()


func show_auto_play(on: bool) -> void:
	var hand: HandView = table.hand
	table.auto_play = on
	(table.badges[table.local_seat] as SeatBadge).auto_play = on
	var auto_button: Button = table.auto_button
	if auto_button != null:
		auto_button.set_pressed_no_signal(on)
	if on:
		end()
		hand.clear_selection()
		hand.set_hinted(PackedInt32Array())
		table.toast(tr("AUTO_PLAY_ON"))
	else:
		table.toast(tr("AUTO_PLAY_OFF"))
	table.refresh_controls()


## The buttons and the status line for the duty now.
func refresh() -> void:
	var events: TableEvents = table.events
	var modal: Modal = table.modal
	var hand: HandView = table.hand
	var duty: StringName = table.duty
	var spectator: bool = table.spectator
	var match_over: bool = table.match_over
	var can_pass: bool = table.can_pass
	var idle := not events.busy() and not modal.is_open()
	var acting := idle and not spectator and duty != &"" and not match_over
	# One obvious action: Pass, Hint and Play are there only when the player has something to do
	# (a play, a tribute, a return); Sort, a hand tool, stays.
	var my_move: bool = table.actions_wanted()
	var pass_button: Button = table.pass_button
	var hint_button: Button = table.hint_button
	var play_button: Button = table.play_button
	pass_button.visible = my_move and duty == &"play"
	play_button.visible = my_move
	hint_button.visible = my_move and duty == &"play" and table.mode == &"training" and Settings.get_value(&"hints")
	# Under a panel (the next-deal buttons stand where the action buttons do) Sort has nothing to do.
	(table.sort_button as Button).visible = hand.card_count() > 0 and not modal.is_open()
	pass_button.disabled = not (acting and duty == &"play" and can_pass)
	hint_button.disabled = not (acting and duty == &"play")
	var selected := hand.selected_ids()
	play_button.disabled = not acting or selected.is_empty() or (duty != &"play" and selected.size() != 1)
	play_button.text = {&"tribute": "BTN_GIVE_TRIBUTE", &"return": "BTN_RETURN"}.get(duty, "BTN_PLAY")
	hand.waiting = not spectator and duty == &"" and not match_over
	var status: Label = table.status
	var turn_seat: int = table.turn_seat
	if modal.is_open():
		# The panel speaks for the table; a status line behind it would be stale.
		status.text = ""
	elif duty == &"" and not spectator and turn_seat >= 0 and turn_seat != table.local_seat and not match_over:
		status.text = tr("WAITING_FOR_FMT").format({seat = tr("SEAT_%d" % turn_seat)})
	elif duty == &"play" and idle:
		status.text = tr("YOUR_TURN") if can_pass else tr("YOUR_LEAD")
	elif duty == &"tribute":
		status.text = Wording.tribute_prompt(events.tribute.receivers, table.local_seat)
	elif duty == &"return":
		status.text = tr("RETURN_PROMPT")
	else:
		status.text = ""
	table.training.refresh()
