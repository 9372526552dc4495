class_name PauseMenu
extends Node
## The table's pause menu (≡ or Esc; Esc again resumes): resume, the rules, surrender (through
## the MatchController; the partner and both opponents vote, AI seats accept at once, so the
## match ends) or leave. Surrendering and leaving a match ask first: neither can be undone.

var table: Control  # table.gd
var _closing := false


func _exit_tree() -> void:
	_closing = true


func open() -> void:
	var modal: Modal = table.modal
	if modal.is_open():
		return
	var controller: MatchController = table.controller
	controller.set_paused(true)
	var buttons: Array = [[&"resume", "BTN_RESUME"]]
	if not table.spectator and not table.match_over and controller.has_match():
		buttons.append([&"surrender", "BTN_SURRENDER"])
	buttons.append([&"rules", "BTN_RULES"])
	buttons.append([&"menu", "BTN_LEAVE"])
	modal.open(tr("PAUSE_TITLE"), [], buttons, &"resume")
	table.lock_input(true)
	var choice: StringName = await modal.closed
	if _closing:
		return
	if choice == &"rules":
		# The rules page covers the table; the match stays paused, and the menu comes back.
		await table.show_rules()
		if _closing:
			return
		open()
		return
	if choice == &"menu":
		var leave := true
		if not table.match_over and not table.spectator and controller.has_match():
			# Online the server keeps the match and the seat; the main menu offers the way back.
			var text := tr("CONFIRM_LEAVE_ONLINE_TEXT" if table.config.online else "CONFIRM_LEAVE_TEXT")
			leave = await modal.confirm(tr("CONFIRM_LEAVE_TITLE"), text, "BTN_LEAVE")
			if _closing:
				return
		if leave:
			table.leave()
			return
	if choice == &"surrender":
		var sure: bool = await modal.confirm(tr("CONFIRM_SURRENDER_TITLE"), tr("CONFIRM_SURRENDER_TEXT"), "BTN_SURRENDER")
		if _closing:
			return
		var code := controller.propose_surrender() if sure else 0
		if code != 0:
			table.show_error(code)
	if not table.events.busy():
		controller.set_paused(false)
		table.lock_input(false)
	table.refresh_controls()
