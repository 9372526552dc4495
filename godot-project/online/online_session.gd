extends Node
## The online session (autoload "Online"): the game's one GuandanClient, kept across screens
## (Online menu → lobby → table), and what those screens share — connecting with the remembered
## server address and nickname, and a player-facing message for every failure. The only script
## besides the MatchController that names GuandanClient (tests/godot/online checks it).
##
## Screens call `client` directly and listen to its signals; this node only keeps it alive (it
## drains its network thread in `_process`, so it must stay in the tree).

## The one client (a child of this node).
var client: GuandanClient
## The player's finished online matches, kept as replay records (a child of this node).
var records: OnlineRecords

## What sent the player back to the Online menu (shown there once), e.g. "the host closed the room".
var last_message := ""
## What the lobby says when it opens (e.g. the match ended while the player was away).
var lobby_message := ""

var _server := ""
var _nickname := ""
var _name_font: Font
var _failure := 0


## Our seat in the room (-1 = spectator or none), from the last `room_joined`.
var seat := -1

## The leaderboard's rule preset and the player whose profile opens next ("" = the player's own):
## what the Leaderboard and Profile screens pass each other.
var board_rules := "competition"
var profile_player := ""

## The quick match the player last entered: its rule preset ("" after creating, joining or
## watching a room) and the room of the table it found. Play again at that table's end queues
## again instead of asking the same table for a rematch.
var quick_rules := ""
var quick_room := ""

## The guest accounts, one per server: [<server>] nickname, player_id, token, and room (the
## room whose seat the player last took, until they leave it). Closing the game mid-match and
## coming back is coming back as the same player, to the seat they hold. A var: tests point it
## elsewhere.
var accounts_path := "user://online_accounts.cfg"
## The online table checks its own invariants on every frame (online/session_invariants.gd):
## `--online-invariants` on the command line, or the online tests.
var check_invariants := OS.get_cmdline_user_args().has("--online-invariants")

## The question asked before anything is sent in plain text to a public host (null until first
## asked; tests answer it).
var plaintext_dialog: ConfirmationDialog

## `--online-ca-file` of `tools/play` (used instead of the Settings' CA file, not saved in it).
var _ca_from_command_line := ""


func _ready() -> void:
	client = GuandanClient.new()
	client.name = "Client"
	add_child(client)
	client.room_joined.connect(_on_room_joined)
	client.room_closed.connect(func(_m: String) -> void:
		seat = -1
		forget_room())
	client.connected.connect(_on_connected)
	client.disconnected.connect(_on_disconnected)
	records = OnlineRecords.new()
	records.name = "Records"
	add_child(records)
	records.watch(client)
	_start_from_command_line.call_deferred()


## `tools/play --online` starts the game with `-- --online-server HOST:PORT [--online-name NAME]
## [--online-ca-file PEM] (--online-create | --online-join CODE)`: connect, create a room with the
## server's AI in the other seats (or join one), and show the lobby. `--online-ca-file` trusts a
## private CA besides Mozilla's roots (an https:// test server). A failure shows the Online menu
## with its reason.
func _start_from_command_line() -> void:
	var args := {}
	var user := OS.get_cmdline_user_args()
	for i in user.size():
		if user[i].begins_with("--online-"):
			args[user[i].substr(9)] = user[i + 1] if i + 1 < user.size() and not user[i + 1].begins_with("--") else ""
	if not args.has("server"):
		return
	var name := String(args.get("name", ""))
	if name == "":
		name = String(Settings.get_value(&"online_nickname"))
	if name == "":
		name = TranslationServer.translate("ONLINE_DEFAULT_NAME")
	var rc := 0
	if args.has("ca-file"):
		trust_ca_file_for_this_run(String(args["ca-file"]))
	rc = ensure_connected(String(args.server), name)
	if rc == 0:
		rc = await wait_online()
	if rc == 0:
		if args.has("join"):
			rc = await enter(&"join", String(args.join).to_upper())
		else:
			rc = await enter(&"create", {"rules": String(Settings.get_value(&"rules_preset"))})
			if rc == 0:
				var levels: Array = Settings.get_value(&"ai_levels")
				# The server hosts L1-L3; a seat set to the desktop level gets L3 there.
				for s in range(1, 4):
					client.set_seat(s, mini(int(levels[s - 1]), 3))
	if rc != 0:
		last_message = error_text(rc)
		EventBus.screen_requested.emit(&"online")
		return
	print("Online: room %s on %s" % [client.get_room_code(), args.server])
	EventBus.screen_requested.emit(&"lobby")


## Connects to the remembered server as the remembered nickname unless already online there.
## Returns the client's code (0 = on the way or already connected).
func ensure_connected(server: String, nickname: String) -> int:
	Settings.set_value(&"online_server", server)
	Settings.set_value(&"online_nickname", nickname)
	if client.is_online() and _server == server and _nickname == nickname:
		return 0
	var rc := apply_ca_file()
	if rc != 0:
		return rc
	_server = server
	_nickname = nickname
	# The account kept for this server, if it was made under this nickname (a new nickname is a
	# new guest account).
	var accounts := _accounts()
	if accounts.has_section_key(server, "player_id") and String(accounts.get_value(server, "nickname", "")) == nickname:
		client.set_credentials(server, nickname, String(accounts.get_value(server, "player_id", "")),
			String(accounts.get_value(server, "token", "")))
	return client.connect_to_server(server, nickname)


## Trusts `path` besides Mozilla's roots until the game closes, whatever the Settings say
## (`tools/play --online-ca-file`, the online tests' `--ca-file`); returns 0 or the client's code.
func trust_ca_file_for_this_run(path: String) -> int:
	_ca_from_command_line = path
	return apply_ca_file()


## Trusts the CA file of the Settings (or `tools/play --online-ca-file`) besides Mozilla's roots
## for what follows; returns 0 or the client's code (the file cannot be used: `ca_file_text()`).
func apply_ca_file() -> int:
	var ca := _ca_from_command_line if _ca_from_command_line != "" else String(Settings.get_value(&"online_ca_file"))
	if ca == String(client.get_ca_file()):
		return 0
	return client.set_ca_file(ca)


## What the player reads when the trusted CA file cannot be used.
func ca_file_text() -> String:
	return tr("ONLINE_CA_FILE_BAD_FMT").format({why = client.get_last_error()})


## Whether the player lets the game speak plain text to `server`: true at once for an encrypted
## address, loopback, a private LAN address or one allowed before; for a public host in plain
## text (http://, ws://, HOST:PORT) the player is asked first, and only a yes allows it. Nothing
## is sent to the server before the answer.
func confirm_plaintext(server: String) -> bool:
	if not client.needs_plaintext_confirmation(server):
		return true
	if plaintext_dialog == null:
		plaintext_dialog = ConfirmationDialog.new()
		plaintext_dialog.name = "PlaintextQuestion"
		plaintext_dialog.dialog_autowrap = true
		plaintext_dialog.min_size = Vector2i(620, 0)
		add_child(plaintext_dialog)
	var d := plaintext_dialog
	d.title = tr("ONLINE_PLAINTEXT_TITLE")
	d.dialog_text = tr("ONLINE_PLAINTEXT_FMT").format({server = server})
	d.ok_button_text = tr("ONLINE_PLAINTEXT_YES")
	d.cancel_button_text = tr("ONLINE_PLAINTEXT_NO")
	var answer := [0]  # 1 yes, -1 no
	var yes := func() -> void: answer[0] = 1
	var no := func() -> void: answer[0] = -1
	d.confirmed.connect(yes)
	d.canceled.connect(no)
	d.popup_centered()
	while answer[0] == 0 and d.visible:
		await get_tree().process_frame
	d.confirmed.disconnect(yes)
	d.canceled.disconnect(no)
	d.hide()
	if answer[0] != 1:
		return false
	return client.allow_plaintext(server) == 0


## The server the session is connected to, or last connected to ("" before).
func current_server() -> String:
	return _server


## Hands the client the account kept for `server` (without connecting), for the account screen
## on a server the player has not connected to in this run. Returns whether one was kept.
func use_kept_account(server: String) -> bool:
	if client.is_online() and _server == server:
		return true
	var accounts := _accounts()
	if not accounts.has_section_key(server, "player_id"):
		return false
	var nickname := String(accounts.get_value(server, "nickname", ""))
	return client.set_credentials(server, nickname, String(accounts.get_value(server, "player_id", "")),
		String(accounts.get_value(server, "token", ""))) == 0


## A new session from a login or a transfer code (the client holds it): kept for `server` under
## the account's nickname, which becomes the Online menu's, so the next connection is this
## account. The other account's room is not this one's.
func keep_session(server: String, nickname: String) -> void:
	var account: Dictionary = client.get_credentials()
	if account.is_empty():
		return
	var accounts := _accounts()
	if accounts.has_section(server):
		accounts.erase_section(server)
	accounts.set_value(server, "nickname", nickname)
	accounts.set_value(server, "player_id", String(account.player_id))
	accounts.set_value(server, "token", String(account.token))
	_save(accounts)
	_server = server
	_nickname = nickname
	Settings.set_value(&"online_server", server)
	Settings.set_value(&"online_nickname", nickname)


## Logged out of `server`: its account is forgotten (the next connection makes a new guest).
func forget_account(server: String) -> void:
	var accounts := _accounts()
	if accounts.has_section(server):
		accounts.erase_section(server)
		_save(accounts)


## The nickname of the account kept for `server` on this device ("" = none kept).
func remembered_nickname(server: String) -> String:
	var accounts := _accounts()
	if not accounts.has_section_key(server, "player_id"):
		return ""
	return String(accounts.get_value(server, "nickname", ""))


## The room whose seat the player holds on `server` as `nickname` ("" if none is remembered).
func remembered_room(server: String, nickname: String) -> String:
	var accounts := _accounts()
	if nickname == "" or String(accounts.get_value(server, "nickname", "")) != nickname:
		return ""
	return String(accounts.get_value(server, "room", ""))


## The player left the room (or it is gone): nothing to come back to.
func forget_room() -> void:
	var accounts := _accounts()
	if _server != "" and accounts.has_section_key(_server, "room"):
		accounts.erase_section_key(_server, "room")
		_save(accounts)


## The accounts file holds tokens: readable by the player's user only where the platform has Unix
## permissions. A new file is made empty and restricted before a token is written into it (a save
## into an existing file keeps its permissions); an older, wider file is narrowed at its next save.
func _save(accounts: ConfigFile) -> void:
	var path := ProjectSettings.globalize_path(accounts_path)
	var owner_only := FileAccess.UNIX_READ_OWNER | FileAccess.UNIX_WRITE_OWNER
	if not FileAccess.file_exists(path):
		var f := FileAccess.open(path, FileAccess.WRITE)
		if f != null:
			f.close()
	FileAccess.set_unix_permissions(path, owner_only)  # an error where there are none: nothing to do
	var rc := accounts.save(path)
	if rc != OK:
		push_warning("Online: cannot save the accounts to %s (error %d)" % [path, rc])
	FileAccess.set_unix_permissions(path, owner_only)


func _accounts() -> ConfigFile:
	var f := ConfigFile.new()
	f.load(accounts_path)  # none yet: empty
	return f


## Online: the account is kept (a new one was made if the server did not know the old).
func _on_connected(_player_id: String) -> void:
	var account: Dictionary = client.get_credentials()
	if _server == "" or account.is_empty():
		return
	var accounts := _accounts()
	if accounts.has_section(_server) and String(accounts.get_value(_server, "player_id", "")) != String(account.player_id):
		accounts.erase_section(_server)  # another account: its room is not ours
	accounts.set_value(_server, "nickname", _nickname)
	accounts.set_value(_server, "player_id", String(account.player_id))
	accounts.set_value(_server, "token", String(account.token))
	_save(accounts)


## The server does not know the kept account (its database was reset): forgotten, so the next
## connect makes a new one instead of failing again.
func _on_disconnected(code: int, _message: String) -> void:
	if code != GuandanClient.ERR_AUTH_FAILED or _server == "":
		return
	var accounts := _accounts()
	if accounts.has_section(_server):
		accounts.erase_section(_server)
		_save(accounts)


func _on_room_joined(code: String, s: int) -> void:
	seat = s
	if s < 0 or _server == "":
		return
	var accounts := _accounts()
	accounts.set_value(_server, "room", code)
	_save(accounts)


## Waits (up to `timeout_s`) until the client is online; returns 0, or the failure's code
## (the `disconnected` signal's; `ERR_IO` on a timeout).
func wait_online(timeout_s := 12.0) -> int:
	var deadline := Time.get_ticks_msec() + int(timeout_s * 1000.0)
	_failure = 0
	var on_fail := func(code: int, _message: String) -> void: _failure = code
	client.disconnected.connect(on_fail)
	while not client.is_online() and _failure == 0 and Time.get_ticks_msec() < deadline:
		await get_tree().process_frame
	client.disconnected.disconnect(on_fail)
	if client.is_online():
		return 0
	return _failure if _failure != 0 else GuandanClient.ERR_IO


## Sends `action` (&"create" with a config dictionary, &"join" or &"spectate" with a code,
## &"quick" with a rule preset) and waits until the server puts us in the room (or the quick-match
## queue); returns 0 or the refusal's code.
func enter(action: StringName, arg: Variant, timeout_s := 10.0) -> int:
	var result := [-1]
	var on_joined := func(_code: String, _seat: int) -> void: result[0] = 0
	var on_queued := func(_rules: String, queued: bool, _waited: int, _found: int) -> void:
		if queued:
			result[0] = 0
	var on_error := func(code: int, _message: String) -> void:
		if result[0] < 0:
			result[0] = code
	client.room_joined.connect(on_joined)
	client.queue_status.connect(on_queued)
	client.error.connect(on_error)
	quick_rules = String(arg) if action == &"quick" else ""
	match action:
		&"quick":
			client.queue_join(arg)
		&"create":
			client.create_room(arg)
		&"join":
			client.join_room(arg)
		&"spectate":
			client.spectate(arg)
	var deadline := Time.get_ticks_msec() + int(timeout_s * 1000.0)
	while result[0] < 0 and Time.get_ticks_msec() < deadline and client.is_online():
		await get_tree().process_frame
	client.room_joined.disconnect(on_joined)
	client.queue_status.disconnect(on_queued)
	client.error.disconnect(on_error)
	if result[0] == 0 and action != &"quick":
		# The room's state follows the join: wait for it (the lobby draws from it).
		while client.get_room() == null and Time.get_ticks_msec() < deadline:
			await get_tree().process_frame
	return result[0] if result[0] >= 0 else GuandanClient.ERR_IO


## Whether the player sits at the table a quick match found (its end offers another table).
func in_quick_room() -> bool:
	return quick_rules != "" and quick_room != "" and client.get_room_code() == quick_room


## Whether the room's match is being played (or finished and waiting for the vote).
func room_in_game() -> bool:
	var room := client.get_room()
	return room != null and room.state in ["playing", "hosting", "reconnecting", "finished"]


## Whether the room's match is over (its result shown, the vote to play again open).
func room_match_over() -> bool:
	var room := client.get_room()
	return room != null and room.state in ["finished", "vote_phase"]


## The config the online table is opened with.
static func table_config() -> MatchConfig:
	return MatchConfig.with({online = true, mode = &"match", save_record = false, card_counter = 0})


## The font for nicknames: the game's font (subset to the translations' characters) falling back
## to the system's CJK fonts, since a player may pick any character for their name.
func name_font() -> Font:
	if _name_font == null:
		var system := SystemFont.new()
		system.font_names = PackedStringArray(["Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei",
			"PingFang SC", "Hiragino Sans GB", "WenQuanYi Micro Hei", "Droid Sans Fallback", "sans-serif"])
		var base: Font = ThemeDB.get_project_theme().default_font if ThemeDB.get_project_theme() != null else null
		if base == null:
			_name_font = system
		else:
			var v := FontVariation.new()
			v.base_font = base
			v.fallbacks = [system]
			_name_font = v
	return _name_font



## The client's code for "the server cannot be reached / the connection is gone".
func io_error() -> int:
	return GuandanClient.ERR_IO


## The player-facing text for a code the client or the server gave (ONLINE_ERR_<code> when the
## online screens have their own words for it, else the table's ERR_<code>).
## Why a room closed (GuandanClient.room_closed's reason), in the player's words.
static func room_closed_text(reason: String) -> String:
	var key := "ONLINE_ROOM_CLOSED_" + reason.to_upper()
	var text := TranslationServer.translate(key)
	return text if text != key else TranslationServer.translate("ONLINE_ROOM_CLOSED")


static func error_text(code: int) -> String:
	for key in ["ONLINE_ERR_%d" % code, "ERR_%d" % code]:
		var text := TranslationServer.translate(key)
		if text != key:
			return text
	return TranslationServer.translate("ERR_GENERIC").format({code = code})

