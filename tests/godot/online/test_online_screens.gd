extends GdTestSuite
## The online screens without a server: they build, every failure is said in words and leaves
## no half-built screen — an unreachable server and a bad nickname on the Online menu, the
## online table opened with no connection goes back to the Online menu. (With a server:
## tools/test-online, and its --shots tour.)


func after_each() -> void:
	Online.client.disconnect_from_server()
	Online.last_message = ""


func _screen(path: String) -> Control:
	var s: Control = load(path).instantiate()
	add_child(s)
	return s


func test_the_online_menu_says_why_it_cannot_connect() -> void:
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	for name in ["ServerText", "Nickname", "Rules", "SpectatorDelay", "Code", "Create", "Join", "Spectate", "Status"]:
		expect(menu.find_child(name, true, false) != null, "the menu has %s" % name)
	var status: Label = menu.find_child("Status", true, false)
	Settings.set_value(&"online_server", "127.0.0.1:1")
	menu.refresh_server()
	menu.find_child("Nickname", true, false).text = ""
	var code: int = await menu.go(&"create")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(code, Online.client.ERR_BAD_NICKNAME, "an empty nickname is refused before connecting")
	expect_eq(status.text, tr("ONLINE_ERR_56"), "and said in words")
	menu.find_child("Nickname", true, false).text = "Ann"
	code = await menu.go(&"join")
	expect_eq(code, Online.io_error(), "nothing listens on port 1")
	expect_eq(status.text, tr("ONLINE_ERR_30"), "the player is told to check the address")
	expect_eq((menu.find_child("ServerText", true, false) as Label).text, tr("ONLINE_SERVER_AT_FMT").format({server = "127.0.0.1:1"}),
		"the home names the server of the Settings")
	expect_eq(String(Settings.get_value(&"online_nickname")), "Ann", "and the nickname")
	for b in ["Create", "Join", "Spectate"]:
		expect(not (menu.find_child(b, true, false) as Button).disabled, "%s is usable again" % b)


## The server address lives in Settings (issue 54): with none set the home uses the build's default
## (the project setting an operator sets), and with neither it says so on a line of its own, its
## actions wait, and nothing connects.
func test_the_online_home_says_when_no_server_is_set_and_uses_the_builds_default() -> void:
	var before: String = Settings.get_value(&"online_server")
	Settings.set_value(&"online_server", "")
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	var line: Label = menu.find_child("ServerText", true, false)
	expect_eq(line.text, tr("ONLINE_NO_SERVER"), "no server: a line says so")
	expect(line.is_visible_in_tree(), "and it is shown")
	for b in ["Quick", "Create", "Join", "Spectate"]:
		expect((menu.find_child(b, true, false) as Button).disabled, "%s waits for a server" % b)
	(menu.find_child("Nickname", true, false) as LineEdit).text = "Ann"
	var code: int = await menu.go(&"create")
	expect_eq(code, Online.client.ERR_BAD_ARGUMENT, "going anywhere without a server is refused")
	expect_eq((menu.find_child("Status", true, false) as Label).text, tr("ONLINE_NO_SERVER"), "and said")
	expect_eq(Online.client.get_connection_state(), "offline", "nothing connects")
	ProjectSettings.set_setting(OnlineMenu.DEFAULT_SERVER_SETTING, "guandan.example.org:443")
	menu.refresh_server()
	expect_eq(line.text, tr("ONLINE_SERVER_AT_FMT").format({server = "guandan.example.org:443"}), "the build's default is used")
	expect(not (menu.find_child("Quick", true, false) as Button).disabled, "and the actions are open")
	Settings.set_value(&"online_server", "127.0.0.1:9")
	menu.refresh_server()
	expect_eq(OnlineMenu.server_address(), "127.0.0.1:9", "the player's own server wins over the build's")
	ProjectSettings.set_setting(OnlineMenu.DEFAULT_SERVER_SETTING, null)
	Settings.set_value(&"online_server", before)
	# Settings has the address, and its Back leads home when the home opened it.
	var asked: Array = []
	var on_screen := func(screen: StringName) -> void: asked.append(screen)
	EventBus.screen_requested.connect(on_screen)
	(menu.find_child("OpenSettings", true, false) as Button).pressed.emit()
	var settings := _screen("res://settings/settings_screen.tscn")
	await frames(2)
	expect(settings.control_for(&"online_server") is LineEdit, "Settings edits the server address")
	(settings.find_child("Back", true, false) as Button).pressed.emit()
	expect_eq(asked, [&"settings", &"online"], "Settings opened from the home goes back to it")
	EventBus.screen_requested.disconnect(on_screen)
	settings.queue_free()
	menu.queue_free()


func test_the_online_table_without_a_connection_goes_back_to_the_menu() -> void:
	var asked: Array = []
	var on_screen := func(screen: StringName) -> void: asked.append(screen)
	EventBus.screen_requested.connect(on_screen)
	var ot := _screen("res://online/online_table.tscn")
	await frames(3)
	expect_eq(asked, [&"online"], "back to the Online menu")
	expect(ot.get("table") == null, "no table was built")
	expect_eq(Online.last_message, tr("ONLINE_ERR_30"), "with the reason for the menu to show")
	EventBus.screen_requested.disconnect(on_screen)


func test_the_lobby_builds_empty() -> void:
	var lobby := _screen("res://online/lobby.tscn")
	await frames(2)
	for name in ["RoomCode", "Copy", "Ready", "Start", "Disband", "Leave", "Seat0", "Seat3", "SpectatorHands"]:
		expect(lobby.find_child(name, true, false) != null, "the lobby has %s" % name)
	# The host's choice of what spectators see: hidden outside a room (and for everyone but the host).
	var hands: OptionButton = lobby.find_child("SpectatorHands", true, false)
	expect(not hands.visible, "no spectator setting outside a room")
	expect_eq(hands.item_count, 3, "no hands, our team's, the other team's")


## Closing the game mid-match and opening it again: the guest account is kept per server (and
## per nickname), so the player connects as the same player, and the Online menu fills in the
## room whose seat they hold. tools/test-online checks the server gives that seat back.
func test_a_seat_held_online_is_offered_again_with_the_same_account() -> void:
	var kept_path: String = Online.accounts_path
	Online.accounts_path = "user://test_online_accounts.cfg"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	var server_before: String = Settings.get_value(&"online_server")
	var nick_before: String = Settings.get_value(&"online_nickname")
	var f := ConfigFile.new()
	f.set_value("127.0.0.1:1", "nickname", "Ann")
	f.set_value("127.0.0.1:1", "player_id", "p-ann")
	f.set_value("127.0.0.1:1", "token", "t-ann")
	f.set_value("127.0.0.1:1", "room", "ABCDEF")
	f.save(Online.accounts_path)
	Settings.set_value(&"online_server", "127.0.0.1:1")
	Settings.set_value(&"online_nickname", "Ann")
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	expect_eq((menu.find_child("Code", true, false) as LineEdit).text, "ABCDEF", "the held room's code is filled in")
	expect_eq((menu.find_child("Status", true, false) as Label).text, tr("ONLINE_YOUR_ROOM_FMT").format({code = "ABCDEF"}),
		"and the player is told Join takes the seat again")
	# Join is in view and has the focus (it was below the fold at 1280x720).
	await frames(3)
	var join := menu.find_child("Join", true, false) as Button
	var scroll := menu.find_child("Scroll", true, false) as ScrollContainer
	expect(scroll.get_global_rect().encloses(join.get_global_rect()), "Join is in view: %s in %s" % [join.get_global_rect(), scroll.get_global_rect()])
	expect(join.has_focus(), "Join has the focus")
	expect_eq(Online.ensure_connected("127.0.0.1:1", "Ann"), 0)
	expect_eq(Online.client.get_credentials(), {"player_id": "p-ann", "token": "t-ann"}, "the kept account is used")
	Online.client.disconnect_from_server()
	# Another nickname is another guest: neither the account nor the room is offered.
	expect_eq(Online.remembered_room("127.0.0.1:1", "Bob"), "")
	expect_eq(Online.ensure_connected("127.0.0.1:1", "Bob"), 0)
	expect(Online.client.get_credentials().is_empty(), "Bob does not get Ann's account")
	Online.client.disconnect_from_server()
	# Bad input is refused with a code and keeps nothing.
	expect_eq(Online.client.set_credentials("127.0.0.1:1", "Ann", "", "t"), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("GuandanClient.set_credentials")
	expect_eq(Online.client.set_credentials("127.0.0.1:1", "Ann", "p", "t\n"), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("GuandanClient.set_credentials")
	expect(Online.client.get_credentials().is_empty(), "nothing kept from a refused account")
	# Leaving the room forgets it.
	Online.ensure_connected("127.0.0.1:1", "Ann")
	Online.forget_room()
	expect_eq(Online.remembered_room("127.0.0.1:1", "Ann"), "", "a room left is not offered")
	if OS.get_name() in ["Linux", "macOS", "FreeBSD", "Android"]:
		# The file holds tokens: the game's save narrows it to its owner (the test wrote it 0644).
		var owner_only := FileAccess.UNIX_READ_OWNER | FileAccess.UNIX_WRITE_OWNER
		expect_eq(FileAccess.get_unix_permissions(ProjectSettings.globalize_path(Online.accounts_path)), owner_only,
			"the accounts file is readable by its owner only")
	Online.client.disconnect_from_server()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	Online.accounts_path = kept_path
	Settings.set_value(&"online_server", server_before)
	Settings.set_value(&"online_nickname", nick_before)


## A public host in plain text (issue 36): the Online menu asks before anything is sent, and "no"
## connects nothing; a yes allows that host. Loopback is never asked about.
func test_a_public_plaintext_server_is_asked_about_and_no_connects_nothing() -> void:
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	var status: Label = menu.find_child("Status", true, false)
	Settings.set_value(&"online_server", "guandan.example.com:7878")
	menu.refresh_server()
	menu.find_child("Nickname", true, false).text = "Ann"
	var result: Array = []
	var going := func() -> void: result.append(await menu.go(&"create"))
	going.call()
	expect(await wait_until(func() -> bool: return Online.plaintext_dialog != null and Online.plaintext_dialog.visible, 5.0),
		"the question is asked")
	expect_eq(Online.client.get_connection_state(), "offline", "nothing is sent before the answer")
	expect(Online.plaintext_dialog.dialog_text.contains("guandan.example.com"), "the question names the server")
	Online.plaintext_dialog.get_cancel_button().pressed.emit()
	expect(await wait_until(func() -> bool: return not result.is_empty(), 5.0), "the menu went on after the answer")
	expect_eq(result, [Online.client.ERR_PLAINTEXT_NOT_ALLOWED], "no: refused")
	expect_eq(Online.client.get_connection_state(), "offline", "no: nothing connects")
	expect_eq(status.text, tr("ONLINE_ERR_71"), "and the player is told why")
	expect(Online.client.needs_plaintext_confirmation("guandan.example.com:7878"), "no allows nothing")
	expect(not Online.client.needs_plaintext_confirmation("127.0.0.1:1"), "loopback is not asked about")
	# A yes allows the host (another one: this client keeps what was allowed).
	var answer: Array = []
	var asking := func() -> void: answer.append(await Online.confirm_plaintext("yes.example.net:7878"))
	asking.call()
	expect(await wait_until(func() -> bool: return Online.plaintext_dialog.visible, 5.0), "asked again")
	Online.plaintext_dialog.get_ok_button().pressed.emit()
	expect(await wait_until(func() -> bool: return not answer.is_empty(), 5.0), "answered")
	expect_eq(answer, [true], "yes")
	expect(not Online.client.needs_plaintext_confirmation("yes.example.net:7878"), "the host is allowed")


## The trusted CA file of the Settings is used before connecting; one that cannot be read is said
## in words and nothing connects.
func test_a_bad_trusted_ca_file_is_said_and_nothing_connects() -> void:
	var before: String = Settings.get_value(&"online_ca_file")
	Settings.set_value(&"online_ca_file", "/nonexistent/ca.pem")
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	Settings.set_value(&"online_server", "127.0.0.1:1")
	menu.refresh_server()
	menu.find_child("Nickname", true, false).text = "Ann"
	var code: int = await menu.go(&"create")
	expect_logged("GuandanClient.set_ca_file")
	expect_eq(code, GuandanEngine.ERR_BAD_ARGUMENT, "the CA file is refused")
	expect(String((menu.find_child("Status", true, false) as Label).text).begins_with(
		tr("ONLINE_CA_FILE_BAD_FMT").split("{")[0]), "and said in words")
	expect_eq(Online.client.get_connection_state(), "offline", "nothing connects")
	Settings.set_value(&"online_ca_file", before)
	expect_eq(Online.apply_ca_file(), 0, "no CA file: Mozilla's roots")
	# The Settings screen edits it.
	var settings := _screen("res://settings/settings_screen.tscn")
	await frames(2)
	var field: LineEdit = settings.control_for(&"online_ca_file")
	expect(field != null, "the Settings screen has the trusted CA file")
	if field != null:
		field.text = " /tmp/ca.pem "
		field.text_submitted.emit(field.text)
		expect_eq(String(Settings.get_value(&"online_ca_file")), "/tmp/ca.pem", "saved as typed, trimmed")
	Settings.set_value(&"online_ca_file", before)


## The Account screen (no server): opened from the Online menu; with no account kept it says so;
## bad input is said in words before anything is sent.
func test_the_account_screen_says_what_is_wrong_before_asking() -> void:
	var kept_path: String = Online.accounts_path
	Online.accounts_path = "user://test_account_screen.cfg"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	var server_before: String = Settings.get_value(&"online_server")
	var asked: Array = []
	var on_screen := func(screen: StringName) -> void: asked.append(screen)
	EventBus.screen_requested.connect(on_screen)
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	Settings.set_value(&"online_server", "127.0.0.1:1")
	menu.refresh_server()
	(menu.find_child("Account", true, false) as Button).pressed.emit()
	expect_eq(asked, [&"account"], "the Online menu opens the Account screen")
	EventBus.screen_requested.disconnect(on_screen)
	expect_eq(String(Settings.get_value(&"online_server")), "127.0.0.1:1", "for the server of the Settings")
	menu.queue_free()
	Online.client.disconnect_from_server()
	var screen := _screen("res://online/account.tscn")
	await frames(2)
	for name in ["Current", "ClaimName", "ClaimPassword", "ClaimRepeat", "Claim", "LoginName", "LoginPassword", "Login",
			"MakeCode", "TransferCode", "EnterCode", "Redeem", "LogOut", "LogOutEverywhere", "ConfirmEverywhere", "Status"]:
		expect(screen.find_child(name, true, false) != null, "the screen has %s" % name)
	var status: Label = screen.find_child("Status", true, false)
	var text := func(n: String, t: String) -> void: (screen.find_child(n, true, false) as LineEdit).text = t
	var press := func(n: String) -> void: (screen.find_child(n, true, false) as Button).pressed.emit()
	for n in ["ClaimPassword", "ClaimRepeat", "LoginPassword"]:
		expect((screen.find_child(n, true, false) as LineEdit).secret, "%s hides what is typed" % n)
	text.call("ClaimName", "ann")
	text.call("ClaimPassword", "long-enough-1")
	text.call("ClaimRepeat", "long-enough-2")
	press.call("Claim")
	expect_eq(status.text, tr("ACCOUNT_PASSWORDS_DIFFER"), "two different passwords")
	text.call("LoginName", "a")
	text.call("LoginPassword", "long-enough-1")
	press.call("Login")
	await frames(2)
	expect_logged("GuandanClient.login")
	expect_eq(status.text, tr("ONLINE_ERR_64"), "a bad login name, in words")
	text.call("LoginName", "ann")
	text.call("LoginPassword", "short")
	press.call("Login")
	await frames(2)
	expect_logged("GuandanClient.login")
	expect_eq(status.text, tr("ONLINE_ERR_65"), "a short password, in words")
	text.call("EnterCode", "ABC")
	press.call("Redeem")
	await frames(2)
	expect_logged("GuandanClient.transfer")
	expect_eq(status.text, tr("ACCOUNT_ERR_BAD_CODE"), "not a transfer code, in words")
	for n in ["MakeCode", "LogOut", "LogOutEverywhere"]:
		expect((screen.find_child(n, true, false) as Button).disabled, "%s needs an account" % n)
	# An unreachable server is said when it answers.
	text.call("LoginPassword", "long-enough-1")
	press.call("Login")
	expect(await wait_until(func() -> bool: return status.text == tr("ONLINE_ERR_30"), 15.0), "unreachable: %s" % status.text)
	claim_logged("GuandanClient.login")
	for e in ["ONLINE_ERR_63", "ONLINE_ERR_64", "ONLINE_ERR_65", "ONLINE_ERR_66", "ONLINE_ERR_70", "ONLINE_ERR_71"]:
		expect(tr(e) != e, "%s has words" % e)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	Online.accounts_path = kept_path
	Settings.set_value(&"online_server", server_before)


## The home's player card says the rank of the rating (issue 54), from the game's RankTable — the
## same table the match's end calls a crossing out with.
func test_the_home_says_the_player_s_rank() -> void:
	Settings.set_value(&"locale", "en")
	var menu := _screen("res://online/online_menu.tscn")
	await frames(2)
	var id := String(Online.client.get_player_id())
	menu._on_profile(PlayerProfile.parse(JSON.stringify({player_id = id, nickname = "Ann", stats = {matches = 9, wins = 6,
		win_rate = 6.0 / 9.0, double_down_rate = 0.2, bombs_per_deal = 0.5}, ratings = [
		{rules = menu.quick_rules(), rating = 1450, matches = 9, wins = 6, draws = 0, history = []}]})))
	var line := (menu.find_child("Rating", true, false) as Label).text
	var ranks := RankTable.current()
	expect("1450" in line and ranks.rank_name(ranks.rank_of(1450)) in line, "the rating and its rank: %s" % line)
	expect_eq(ranks.rank_name(ranks.rank_of(1450)), "Expert", "1450 is in Expert's band")
	menu.queue_free()
