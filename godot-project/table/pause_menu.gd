class_name PauseMenu
extends Node
## The table's pause menu (≡ or Esc): resume, surrender (through the MatchController; the
## partner and both opponents vote, AI seats accept at once, so the match ends) or leave.

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
	buttons.append([&"menu", "BTN_LEAVE"])
	modal.open(tr("PAUSE_TITLE"), [], buttons)
	table.lock_input(true)
	var choice: StringName = await modal.closed
	if _closing:
		return
	if choice == &"menu":
		table.leave()
		return
	if choice == &"surrender":
		var code := controller.propose_surrender()
		if code != 0:
			table.show_error(code)
	if not table.events.busy():
		controller.set_paused(false)
		table.lock_input(false)
	table.refresh_controls()
