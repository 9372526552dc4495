class_name OnlineMenu
extends Control
## Menu → Online, the online home as the genre draws it: the player first (portrait, nickname,
## rating, account state), one large Quick match with the rule presets as chips, then "Create a
## room" and "Join with a code" as cards; the leaderboard, the account and the Settings one tap
## away in the top bar. The server address lives in Settings (`online_server`); when the player
## has set none the build's default is used (the project setting `guandan/online/default_server`,
## which an operator sets in project.godot before exporting or in an `override.cfg` beside the
## game), and when there is none either a line under the cards says so and the actions wait.
##
## Each failure (unreachable server, bad nickname, wrong code, room full or started, versions
## that do not match) is said here in words, and nothing is left half-built; success opens the
## lobby (or, spectating a match in progress, the table). A public server in plain text is
## connected to only after the player said yes to the question (Online.confirm_plaintext).

## The rule presets, in the order of the Rules options and the quick match's chips.
const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
## Where a build carries its operator's server ("" = none).
const DEFAULT_SERVER_SETTING := "guandan/online/default_server"

## Set by the main menu's "Return to your online match": the next Online menu joins the
## remembered room at once (once).
static var join_on_open := false

@onready var _nick: LineEdit = %Nickname
@onready var _rules: OptionButton = %Rules
@onready var _delay: SpinBox = %SpectatorDelay
@onready var _code: LineEdit = %Code
@onready var _status: Label = %Status
@onready var _rating: Label = %Rating
@onready var _account_state: Label = %AccountState
@onready var _portrait: SeatAvatar = %Portrait
@onready var _server_text: Label = %ServerText
@onready var _chips: Array[Button] = [%Chip0, %Chip1, %Chip2, %Chip3]
@onready var _actions: Array[Button] = [%Quick, %Create, %Join, %Spectate, %Leaderboard]
var _busy := false
## The player's own profile, once the server sent it (null before).
var _profile: PlayerProfile = null


## The server the home speaks to: the player's (Settings), else the build's default ("" = none).
static func server_address() -> String:
	var chosen := String(Settings.get_value(&"online_server")).strip_edges()
	if chosen != "":
		return chosen
	return String(ProjectSettings.get_setting(DEFAULT_SERVER_SETTING, "")).strip_edges()


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	%OpenSettings.pressed.connect(_open_settings)
	_nick.text = String(Settings.get_value(&"online_nickname"))
	_nick.add_theme_font_override(&"font", Online.name_font())
	_nick.text_changed.connect(func(_t: String) -> void: _show_player())
	var preset := maxi(RULES.find(String(Settings.get_value(&"rules_preset"))), 0)
	_rules.select(preset)
	_chips[preset].button_pressed = true
	for chip in _chips:
		chip.toggled.connect(func(_on: bool) -> void: _show_rating())
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
	Online.client.profile_received.connect(_on_profile)
	Online.client.account_done.connect(_on_account)
	if Online.last_message != "":
		# Brought back here by a failure (disconnected for good, room closed — still connected
		# then): say what happened.
		_status.text = Online.last_message
	Online.last_message = ""
	refresh_server()
	_show_player()
	_ask_who_we_are()
	_offer_remembered_room()
	if join_on_open:
		join_on_open = false
		if _code.text != "":
			_go(&"join")


## Shows where the home connects (or that no server is set, the actions waiting for one). Tests
## call it after setting `online_server`.
func refresh_server() -> void:
	var server := server_address()
	var none := server == ""
	_server_text.text = tr("ONLINE_NO_SERVER") if none else tr("ONLINE_SERVER_AT_FMT").format({server = server})
	_server_text.add_theme_color_override(&"font_color", Color(1.0, 0.72, 0.55) if none else Color(0.8, 0.86, 0.8))
	if not _busy:
		for b in _actions:
			b.disabled = none


## The rule preset the quick match's chips pick.
func quick_rules() -> String:
	for i in _chips.size():
		if _chips[i].button_pressed:
			return RULES[i]
	return RULES[0]


## The player card: the face and the account state kept on this device (the rating and the
## account's name come from the server while online: `_ask_who_we_are`).
func _show_player() -> void:
	var id := String(Online.client.get_player_id())
	_portrait.face_key = hash(id if id != "" else _nick.text.strip_edges())
	if Online.client.is_online() and Online.current_server() == server_address():
		return  # the server's answers fill it
	var kept := Online.remembered_nickname(server_address())
	if kept != "" and kept == _nick.text.strip_edges():
		_account_state.text = tr("ONLINE_HOME_ACCOUNT_KEPT")
	else:
		_account_state.text = tr("ONLINE_HOME_NEW_PLAYER")
	_rating.text = tr("ONLINE_HOME_RATING_FMT").format({rating = "–"})


## While connected to this home's server: the account and the player's own profile are asked
## for (their answers fill the player card).
func _ask_who_we_are() -> void:
	if not Online.client.is_online() or Online.current_server() != server_address():
		return
	Online.client.fetch_account()
	Online.client.fetch_profile("")


func _on_profile(p: PlayerProfile) -> void:
	if String(p.player_id) != String(Online.client.get_player_id()):
		return  # another player's, asked by the Profile screen
	_profile = p
	_show_rating()


func _show_rating() -> void:
	if _profile == null:
		return
	var rules := quick_rules()
	for r: Rating in _profile.ratings:
		if String(r.rules) == rules:
			var key := "PROFILE_RANKED_ONE_FMT" if int(r.matches) == 1 else "PROFILE_RANKED_FMT"
			# The rank from the same table the match's end calls a crossing out with.
			var ranks := RankTable.current()
			_rating.text = tr("ONLINE_HOME_RATING_FMT").format({rating = int(r.rating)}) + "  ·  " \
				+ ranks.rank_name(ranks.rank_of(int(r.rating))) + "  ·  " \
				+ tr(key).format({matches = int(r.matches), wins = int(r.wins)})
			return
	_rating.text = tr("ONLINE_HOME_RATING_FMT").format({rating = "–"}) + "  ·  " + tr("PROFILE_NO_RATING")


func _on_account(what: String, result: AccountAnswer) -> void:
	if what != "account" or result == null:
		return
	if String(result.name) != "":
		_account_state.text = tr("ACCOUNT_CLAIMED_AS_FMT").format({name = String(result.name), nickname = String(result.nickname)})
	else:
		_account_state.text = tr("ACCOUNT_GUEST_FMT").format({nickname = String(result.nickname)})


## A seat held in a room (the game was closed, or the connection lost for good, mid-match):
## its code is filled in and the player is told that Join takes the seat again.
func _offer_remembered_room() -> void:
	var room := Online.remembered_room(server_address(), _nick.text.strip_edges())
	if room == "" or _code.text != "":
		return
	_code.text = room
	if _status.text == "":
		_status.text = tr("ONLINE_YOUR_ROOM_FMT").format({code = room})
	# The status says "Join": the Join card is brought into view and given the focus.
	_show_join.call_deferred()


func _show_join() -> void:
	var join: Button = %Join
	var scroll: ScrollContainer = %Scroll
	if is_inside_tree():
		await get_tree().process_frame
		scroll.ensure_control_visible(join)
		join.grab_focus()


## What Quick match / Create / Join / Spectate / Leaderboard do (tests call it too). Returns 0
## when the room (or, for a quick match, the queue; for the leaderboard, the server) was reached.
func go(action: StringName) -> int:
	if _busy:
		return -1
	var server := server_address()
	if server == "":
		_status.text = tr("ONLINE_NO_SERVER")
		Sfx.play(&"error")
		return Online.client.ERR_BAD_ARGUMENT
	_set_busy(true)
	_status.text = tr("ONLINE_CONNECTING")
	var code := _code.text.strip_edges().to_upper()
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
		Online.board_rules = quick_rules()
		EventBus.screen_requested.emit(&"leaderboard")
		return 0
	if rc == 0:
		_status.text = tr("ONLINE_ENTERING")
		var arg: Variant = code
		if action == &"create":
			Settings.set_value(&"rules_preset", RULES[maxi(_rules.selected, 0)])
			arg = {"rules": RULES[maxi(_rules.selected, 0)], "spectator_delay": int(_delay.value)}
		elif action == &"quick":
			arg = quick_rules()
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


## The account screen, for this home's server (no connection needed to log in there).
func _open_account() -> void:
	Settings.set_value(&"online_server", server_address())
	Settings.set_value(&"online_nickname", _nick.text.strip_edges())
	EventBus.screen_requested.emit(&"account")


func _open_settings() -> void:
	Settings.set_value(&"online_nickname", _nick.text.strip_edges())
	SettingsScreen.back_to = &"online"
	EventBus.screen_requested.emit(&"settings")


func _set_busy(busy: bool) -> void:
	_busy = busy
	for b in _actions:
		b.disabled = busy
	%Account.disabled = busy
	if not busy:
		refresh_server()
