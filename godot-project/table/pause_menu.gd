class_name PauseMenu
extends Node
## The table's pause menu (≡ or Esc; Esc again resumes): resume, the rules, surrender (through
## the MatchController; the partner and both opponents vote, AI seats accept at once, so the
## match ends) or leave. Surrendering and leaving a match ask first: neither can be undone.
## Offline the match is paused meanwhile. Online the server's clock cannot stop (issue 38: the
## menu said "Paused" while the clock ran down under it): the menu says the match goes on and,
## while the player's clock runs, shows its seconds, the surrender question too (kept short).

var table: Table
var _closing := false
## Online, the open panel's line with the seconds left on the player's clock (null otherwise).
var _clock_line: Label


func _ready() -> void:
	set_process(false)


func _process(_delta: float) -> void:
	var modal: Modal = table.modal
	if _clock_line == null or not is_instance_valid(_clock_line) or not modal.is_open():
		_clock_line = null
		set_process(false)
		return
	_show_clock()


func _exit_tree() -> void:
	_closing = true


func open() -> void:
	var modal: Modal = table.modal
	if modal.is_open():
		return
	var controller: MatchController = table.controller
	controller.set_paused(true)
	var buttons: Array = [[&"resume", "BTN_RESUME"]]
	if not table.spectator and not table.match_over and controller.has_match() \
			and (table.events as TableEvents).results.may_propose_surrender():
		buttons.append([&"surrender", "BTN_SURRENDER"])
	buttons.append([&"rules", "BTN_RULES"])
	buttons.append([&"menu", "BTN_LEAVE"])
	var online: bool = table.config.online
	var lines: Array = []
	if online:
		lines = [tr("PAUSE_ONLINE_TEXT")] + _clock_lines()
	modal.open(tr("PAUSE_TITLE_ONLINE" if online else "PAUSE_TITLE"), lines, buttons, &"resume")
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
		var text := tr("CONFIRM_SURRENDER_ONLINE_TEXT" if online else "CONFIRM_SURRENDER_TEXT")
		var sure: bool = await modal.confirm(tr("CONFIRM_SURRENDER_TITLE"), text, "BTN_SURRENDER",
			_clock_lines() if online else [])
		if _closing:
			return
		var code := controller.propose_surrender() if sure else 0
		if code != 0:
			table.show_error(code)
	if not table.events.busy():
		controller.set_paused(false)
		table.lock_input(false)
	table.refresh_controls()


## The line with the player's clock for the panel about to open (kept up to date while it is up),
## or none when no clock runs for the player.
func _clock_lines() -> Array:
	_clock_line = null
	if not (table.my_countdown as Control).visible:
		return []
	_clock_line = (table.modal as Modal).text_line("")
	_show_clock()
	set_process(true)
	return [_clock_line]


func _show_clock() -> void:
	var controller: MatchController = table.controller
	var left := controller.time_left() if controller.has_match() else -1.0
	_clock_line.visible = left >= 0.0
	_clock_line.text = tr("PAUSE_CLOCK_LEFT_FMT").format({s = maxi(ceili(left), 0)})
	var warn := left <= (table.pacing as PacingProfile).clock_warning_s
	_clock_line.add_theme_color_override(&"font_color", SeatBadge.WARN_COLOR if warn else Color(1, 1, 0.85))


## The seconds the open panel shows on the player's clock ("" when it shows none; tests).
func clock_text() -> String:
	return _clock_line.text if _clock_line != null and is_instance_valid(_clock_line) and _clock_line.visible else ""
