class_name OnlineMenu
extends Control
## Menu → Online: the server address and nickname (both remembered in Settings), then the
## account and the leaderboard (top right), a quick match (a table of strangers of similar rating, rule preset chosen here), create a room (rule
## preset, spectator delay), join one by its code, or spectate one. Each failure —
## unreachable server, bad nickname, wrong code, room full or started, versions that do not
## match — is said here in words, and nothing is left half-built; success opens the lobby (or,
## spectating a match in progress, the table). A public server in plain text is connected to
## only after the player said yes to the question (Online.confirm_plaintext).

## The rule presets, in the order of the Rules options in the scene.
const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]

## Set by the main menu's "Return to your online match": the next Online menu joins the
## remembered room at once (once).
static var join_on_open := false

@onready var _server: LineEdit = %Server
@onready var _nick: LineEdit = %Nickname
@onready var _rules: OptionButton = %Rules
@onready var _delay: SpinBox = %SpectatorDelay
@onready var _code: LineEdit = %Code
@onready var _status: Label = %Status
@onready var _quick_rules: OptionButton = %QuickRules
@onready var _buttons: Array[Button] = [%Quick, %Create, %Join, %Spectate, %Leaderboard, %Account]
var _busy := false


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	_server.text = String(Settings.get_value(&"online_server"))
	_nick.text = String(Settings.get_value(&"online_nickname"))
	_rules.select(maxi(RULES.find(String(Settings.get_value(&"rules_preset"))), 0))
	_quick_rules.select(_rules.selected)
	_code.text_changed.connect(func(t: String) -> void:
		var col := _code.caret_column
		_code.text = t.to_upper()
		_code.caret_column = col)
	%Quick.pressed.connect(_go.bind(&"quick"))
	%Create.pressed.connect(_go.bind(&"create"))
	%Join.pressed.connect(_go.bind(&"join"))
	%Spectate.pressed.connect(_go.bind(&"spectate"))
	%Leaderboard.pressed.connect(_go.bind(&"leaderboard"))
	%Account.pressed.connect(_open_account)
	if Online.last_message != "":
		# Brought back here by a failure (disconnected for good, room closed — still connected
		# then): say what happened.
		_status.text = Online.last_message
	Online.last_message = ""
	_offer_remembered_room()
	if join_on_open:
		join_on_open = false
		if _code.text != "":
			_go(&"join")


## A seat held in a room (the game was closed, or the connection lost for good, mid-match):
## its code is filled in and the player is told that Join takes the seat again.
func _offer_remembered_room() -> void:
	var room := Online.remembered_room(_server.text.strip_edges(), _nick.text.strip_edges())
	if room == "" or _code.text != "":
		return
	_code.text = room
	if _status.text == "":
		_status.text = tr("ONLINE_YOUR_ROOM_FMT").format({code = room})
	# The status says "Join": the Join row is brought into view and given the focus (it was
	# below the fold at 1280x720).
	_show_join.call_deferred()


func _show_join() -> void:
	var join: Button = %Join
	var scroll := find_child("Scroll", true, false) as ScrollContainer
	if scroll != null and is_inside_tree():
		await get_tree().process_frame
		scroll.ensure_control_visible(join)
		join.grab_focus()


## What Quick match / Create / Join / Spectate / Leaderboard do (tests call it too). Returns 0
## when the room (or, for a quick match, the queue; for the leaderboard, the server) was reached.
func go(action: StringName) -> int:
	if _busy:
		return -1
	_set_busy(true)
	_status.text = tr("ONLINE_CONNECTING")
	var code := _code.text.strip_edges().to_upper()
	var server := _server.text.strip_edges()
	var rc := 0
	# A public host in plain text: nothing is sent before the player says yes.
	if not await Online.confirm_plaintext(server):
		rc = Online.client.ERR_PLAINTEXT_NOT_ALLOWED
	if rc == 0:
		rc = Online.ensure_connected(server, _nick.text.strip_edges())
	if rc == 0:
		rc = await Online.wait_online()
	if rc == 0 and action == &"leaderboard":
		_set_busy(false)
		_status.text = ""
		Online.board_rules = RULES[maxi(_quick_rules.selected, 0)]
		EventBus.screen_requested.emit(&"leaderboard")
		return 0
	if rc == 0:
		_status.text = tr("ONLINE_ENTERING")
		var arg: Variant = code
		if action == &"create":
			Settings.set_value(&"rules_preset", RULES[maxi(_rules.selected, 0)])
			arg = {"rules": RULES[maxi(_rules.selected, 0)], "spectator_delay": int(_delay.value)}
		elif action == &"quick":
			arg = RULES[maxi(_quick_rules.selected, 0)]
		rc = await Online.enter(action, arg)
	if not is_inside_tree():
		return rc
	_set_busy(false)
	if rc == Online.client.ERR_ROOM_NOT_FOUND:
		Online.forget_room()  # the remembered room is gone
	if rc != 0:
		var ca_refused: bool = rc == Online.client.ERR_BAD_ARGUMENT and Online.client.get_last_error().begins_with("CA file")
		_status.text = Online.ca_file_text() if ca_refused else Online.error_text(rc)
		Sfx.play(&"error")
		return rc
	_status.text = ""
	if action == &"quick":
		EventBus.screen_requested.emit(&"quick_search")
	elif Online.client.is_spectator() and Online.room_in_game():
		EventBus.match_requested.emit(Online.table_config())
	else:
		EventBus.screen_requested.emit(&"lobby")
	return 0


func _go(action: StringName) -> void:
	go(action)


## The account screen, for the server typed here (no connection needed to log in there).
func _open_account() -> void:
	Settings.set_value(&"online_server", _server.text.strip_edges())
	Settings.set_value(&"online_nickname", _nick.text.strip_edges())
	EventBus.screen_requested.emit(&"account")


func _set_busy(busy: bool) -> void:
	_busy = busy
	for b in _buttons:
		b.disabled = busy
