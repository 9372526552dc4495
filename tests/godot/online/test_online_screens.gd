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
	for name in ["Server", "Nickname", "Rules", "SpectatorDelay", "Code", "Create", "Join", "Spectate", "Status"]:
		expect(menu.find_child(name, true, false) != null, "the menu has %s" % name)
	var status: Label = menu.find_child("Status", true, false)
	menu.find_child("Server", true, false).text = "127.0.0.1:1"
	menu.find_child("Nickname", true, false).text = ""
	var code: int = await menu.go(&"create")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(code, Online.client.ERR_BAD_NICKNAME, "an empty nickname is refused before connecting")
	expect_eq(status.text, tr("ONLINE_ERR_56"), "and said in words")
	menu.find_child("Nickname", true, false).text = "Ann"
	code = await menu.go(&"join")
	expect_eq(code, Online.io_error(), "nothing listens on port 1")
	expect_eq(status.text, tr("ONLINE_ERR_30"), "the player is told to check the address")
	expect_eq(String(Settings.get_value(&"online_server")), "127.0.0.1:1", "the address is remembered")
	expect_eq(String(Settings.get_value(&"online_nickname")), "Ann", "and the nickname")
	for b in ["Create", "Join", "Spectate"]:
		expect(not (menu.find_child(b, true, false) as Button).disabled, "%s is usable again" % b)


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
	for name in ["RoomCode", "Copy", "Ready", "Start", "Disband", "Leave", "Seat0", "Seat3"]:
		expect(lobby.find_child(name, true, false) != null, "the lobby has %s" % name)
