class_name PlayerMoves
extends RefCounted
## What the player's buttons, keys and hand gestures do at the table: play the selection (after
## the optional confirmation), give or return a card, pass, ask for a hint, sort, group. Errors
## the player caused come back in words. The table owns one and keeps the duty and the state.

var table: Table


func _init(owner_table: Table) -> void:
	table = owner_table


## Play / Give / Return pressed (or Enter, or a double tap): what it means depends on the duty.
func play_pressed() -> void:
	if not table.is_idle() or table.spectator or table.match_over:
		return
	var hand: HandView = table.hand
	var controller: MatchController = table.controller
	var selected := hand.selected_ids()
	var duty: StringName = table.duty
	match duty:
		&"":
			if not selected.is_empty() and table.turn_seat >= 0 and table.turn_seat != table.local_seat:
				table.say_error(tr("NOT_YOUR_TURN_FMT").format({seat = Wording.seat_in_text(table.turn_seat, table.local_seat, table.spectator)}))
		&"tribute", &"return":
			if selected.size() != 1:
				table.toast(tr("SELECT_ONE_CARD"))
				return
			var options := controller.tribute_options() if duty == &"tribute" else controller.return_options()
			if not options.is_empty() and not (selected[0] in options):
				table.say_error(exchange_error(duty == &"tribute", options))
				return
			var code := controller.give_tribute(selected[0]) if duty == &"tribute" else controller.return_card(selected[0])
			if code == 0:
				if duty == &"tribute":
					(table.events as TableEvents).tribute.on_you_paid(selected[0])
				table.end_duty()
				hand.set_hinted(PackedInt32Array())
			else:
				table.show_error(code)
			table.refresh_controls()
		&"play":
			play_selection(-1)


## Plays the selected cards with a reading index (-1 = the default), after the optional
## confirmation. Returns the engine's code (or -1 when nothing was sent).
func play_selection(reading: int) -> int:
	var hand: HandView = table.hand
	var modal: Modal = table.modal
	var selected := hand.selected_ids()
	if table.duty != &"play" or selected.is_empty() or not table.is_idle():
		return -1
	var info: Selection = table.training.selection_info()
	if info != null and info.playable.is_empty():
		table.say_error(illegal_play_text(info))
		return -1
	if Settings.get_value(&"confirm_play"):
		var text := _selection_text(info, reading)
		modal.open(tr("CONFIRM_PLAY_TITLE"), [text], [[&"yes", "BTN_PLAY"], [&"no", "BTN_CANCEL"]])
		table.lock_input(true)
		var answer: StringName = await modal.closed
		if table.closing:
			return -1
		table.lock_input(false)
		if answer != &"yes" or table.duty != &"play":
			return -1
	var controller: MatchController = table.controller
	var code := controller.play(selected, reading)
	if code == 9 or code == 1:
		table.say_error(illegal_play_text(controller.advice.selection(selected)))
	elif code != 0:
		table.show_error(code)
	return code


## Why these cards cannot be played, from the advisor's reading of them: not a combination at
## all, or a combination that does not beat what is on the table (named, with who played it).
func illegal_play_text(info: Selection) -> String:
	if info == null or info.readings.is_empty():
		return tr("ERR_1")
	var table_play: Play = table.table_play
	if table_play == null:
		return tr("ERR_9")
	return tr("DOES_NOT_BEAT_FMT").format({play = PlayText.describe(info.readings[0].play), table = PlayText.describe(table_play),
		seat = Wording.seat_in_text(table.table_play_seat, table.local_seat, table.spectator)})


## A wrong card for the tribute (it must be the highest, not a wild) or the return: which
## cards are allowed.
func exchange_error(is_tribute: bool, options: PackedInt32Array) -> String:
	var names := PackedStringArray()
	for id in options:
		var t := PlayText.card_text(id)
		if not (t in names):
			names.append(t)
	var key := "TRIBUTE_WRONG_CARD_FMT" if is_tribute else "RETURN_WRONG_CARD_FMT"
	return tr(key).format({cards = tr("LIST_SEP").join(names)})


func _selection_text(info: Selection, reading: int) -> String:
	if info == null:
		return Cards.notation_list((table.hand as HandView).selected_ids())
	for p: Reading in info.playable:
		if reading < 0 or p.index == reading:
			return PlayText.describe(p.play)
	return Cards.notation_list((table.hand as HandView).selected_ids())


func pass_pressed() -> void:
	if not table.is_idle() or table.duty != &"play" or not table.can_pass:
		return
	var code: int = (table.controller as MatchController).pass_turn()
	if code != 0:
		table.show_error(code)


func hint_pressed() -> void:
	if not table.is_idle() or table.duty != &"play":
		return
	table.training.next_hint()


## Rank view or grouping view, remembered for the next deal.
func sort_pressed() -> void:
	var hand: HandView = table.hand
	hand.group_view = not hand.group_view
	Settings.set_value(&"group_view", hand.group_view)


## A long press on the hand: group the selection, ungroup, or switch the view.
func grouping_requested(_at: Vector2) -> void:
	var modal: Modal = table.modal
	var hand: HandView = table.hand
	if modal.is_open():
		return
	var buttons: Array = []
	if hand.selected_ids().size() >= 2:
		buttons.append([&"group", "BTN_GROUP_SELECTION"])
	if not hand.manual_groups().is_empty():
		buttons.append([&"ungroup", "BTN_UNGROUP"])
	buttons.append([&"view", "BTN_VIEW_BY_RANK" if hand.group_view else "BTN_VIEW_BY_GROUP"])
	buttons.append([&"close", "BTN_CANCEL"])
	modal.open(tr("GROUPING_TITLE"), [], buttons)
	table.lock_input(true)
	var choice: StringName = await modal.closed
	if table.closing:
		return
	table.lock_input((table.events as TableEvents).busy())
	match choice:
		&"group":
			hand.group_selection()
		&"ungroup":
			hand.ungroup()
		&"view":
			sort_pressed()

