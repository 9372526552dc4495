extends Node
## Accounts that follow the player, through the Account screen against a real guandan-server
## (tools/test-online runs it headless; with --out it also saves screenshots of the screen).
## Each "device" is its own accounts file and its own client:
## - device A plays as a guest, then claims the account with a login name and password;
## - device B: a wrong password is said in words; the right one logs in, the session is kept in
##   B's file, and B connects as A's player;
## - B shows a transfer code; device C enters it and connects as the same player; the code is
##   used up (a second use is refused in words);
## - C logs out everywhere (after the question): its account is forgotten, and B's session is
##   over too (said in words).
##
## Args after `--`: --server HOST:PORT [--locale en|zh_CN] [--out DIR]. Prints "e2e_account: ok".

const PASSWORD := "e2e-Secret-pass-42"

var _args := {"locale": "en"}
var _prefix := ""
var _screen: Control
var _files: Array[String] = []


func _ready() -> void:
	var user := OS.get_cmdline_user_args()
	for i in range(0, user.size() - 1):
		if user[i].begins_with("--"):
			_args[user[i].substr(2)] = user[i + 1]
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", String(_args.locale))
	if _args.has("ca-file"):
		# tools/test-online --tls: the run's own CA, set as a player would in Settings (every
		# device's client is given it by Online before it connects or asks anything).
		Settings.set_value(&"online_ca_file", String(_args["ca-file"]))
	var win := DisplayServer.window_get_size()
	_prefix = "account_%s_%dx%d" % [_args.locale, win.x, win.y]
	if _args.has("out"):
		DirAccess.make_dir_recursive_absolute(String(_args.out))
	var ok: bool = await _run()
	Online.client.disconnect_from_server()
	for f in _files:
		DirAccess.remove_absolute(ProjectSettings.globalize_path(f))
	if ok:
		print("e2e_account: ok")
	else:
		printerr("e2e_account: %s failed" % _prefix)
	get_tree().quit(0 if ok else 1)


func _run() -> bool:
	var server := String(_args.server)
	Settings.set_value(&"online_server", server)
	var name := "ann-%d" % (randi() % 100000000)
	# Device A: a guest that plays, then claims its account.
	_device("a", Online.client)
	if Online.ensure_connected(server, "Ann") != 0 or await Online.wait_online() != 0:
		return _fail("device A did not connect: " + Online.client.get_last_error())
	var player: String = Online.client.get_player_id()
	await _open()
	if not await _until(func() -> bool: return _text("Current") == tr("ACCOUNT_GUEST_FMT").format({nickname = "Ann"}), 10.0):
		return _fail("the guest account is not shown: " + _text("Current"))
	await _shot("guest")
	_type("ClaimName", name)
	_type("ClaimPassword", PASSWORD)
	_type("ClaimRepeat", PASSWORD + "x")
	_press("Claim")
	if _text("Status") != tr("ACCOUNT_PASSWORDS_DIFFER"):
		return _fail("two different passwords were not said: " + _text("Status"))
	_type("ClaimRepeat", PASSWORD)
	_press("Claim")
	if not await _status(tr("ACCOUNT_CLAIMED_FMT").format({name = name})):
		return false
	if not await _until(func() -> bool: return _text("Current").contains(name), 10.0):
		return _fail("the claimed account is not shown: " + _text("Current"))
	if (_screen.find_child("ClaimPanel", true, false) as Control).visible:
		return _fail("a claimed account still offers to claim it")

	# Device B: a wrong password, then the right one.
	_device("b")
	await _open()
	if _text("Current") != tr("ACCOUNT_NONE"):
		return _fail("device B shows an account: " + _text("Current"))
	_type("LoginName", name)
	_type("LoginPassword", "not-the-password")
	_press("Login")
	if not await _status(tr("ACCOUNT_ERR_WRONG_LOGIN")):
		return false
	_type("LoginPassword", PASSWORD)
	_press("Login")
	if not await _status(tr("ACCOUNT_LOGGED_IN_FMT").format({nickname = "Ann"})):
		return false
	if _kept("b") != player:
		return _fail("device B kept %s, not the player %s" % [_kept("b"), player])
	if Online.ensure_connected(server, String(Settings.get_value(&"online_nickname"))) != 0 or await Online.wait_online() != 0:
		return _fail("device B did not connect: " + Online.client.get_last_error())
	if Online.client.get_player_id() != player:
		return _fail("device B plays as %s, not %s" % [Online.client.get_player_id(), player])
	if not await _until(func() -> bool: return _text("Current").contains(name), 10.0):
		return _fail("device B does not show the account: " + _text("Current"))

	# B shows a transfer code; C takes the account with it.
	_press("MakeCode")
	var code_label := _screen.find_child("TransferCode", true, false) as Label
	if not await _until(func() -> bool: return code_label.visible and code_label.text.length() == 11, 10.0):
		return _fail("no transfer code shown: " + _text("Status"))
	var code := code_label.text
	await _frames(10)
	await _shot("claimed")
	_device("c")
	await _open()
	_type("EnterCode", code.to_lower())
	_press("Redeem")
	if not await _status(tr("ACCOUNT_LOGGED_IN_FMT").format({nickname = "Ann"})):
		return false
	if _kept("c") != player:
		return _fail("device C kept %s, not the player %s" % [_kept("c"), player])
	if Online.ensure_connected(server, "Ann") != 0 or await Online.wait_online() != 0:
		return _fail("device C did not connect: " + Online.client.get_last_error())
	if Online.client.get_player_id() != player:
		return _fail("device C plays as %s, not %s" % [Online.client.get_player_id(), player])
	var c_client: Node = Online.client
	# The code was used: another device cannot use it again.
	_device("d")
	await _open()
	_type("EnterCode", code)
	_press("Redeem")
	if not await _status(tr("ACCOUNT_ERR_WRONG_CODE")):
		return false

	# C logs out everywhere, after the question: B's session ends too.
	_device("c", c_client)
	await _open()
	if not await _until(func() -> bool: return _text("Current").contains(name), 10.0):
		return _fail("device C does not show the account: %s (status: %s; kept: %s)" % [_text("Current"), _text("Status"), _kept("c")])
	_press("LogOutEverywhere")
	var ask := _screen.find_child("ConfirmEverywhere", true, false) as ConfirmationDialog
	if not await _until(func() -> bool: return ask.visible, 5.0):
		return _fail("log out everywhere asked nothing")
	ask.get_ok_button().pressed.emit()
	if not await _status(tr("ACCOUNT_LOGGED_OUT")):
		return false
	if _kept("c") != "":
		return _fail("device C still keeps the account")
	_device("b")
	await _open()
	return await _status(tr("ACCOUNT_ERR_SESSION_ENDED"))


## Another device: its own accounts file and its own client (the one given, else a new one). The
## screen is closed; `_open` shows it for this device.
func _device(id: String, client: Node = null) -> void:
	if _screen != null:
		_screen.queue_free()
		_screen = null
	var path := "user://e2e_account_%s.cfg" % id
	if not path in _files:
		_files.append(path)
		DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
	Online.accounts_path = path
	if client == null:
		client = GuandanClient.new()
		Online.add_child(client)
	if client != Online.client:
		Online.client.disconnect_from_server()
	Online.client = client


func _open() -> void:
	await _frames(2)
	_screen = load("res://online/account.tscn").instantiate()
	add_child(_screen)
	await _frames(3)


## The player id the device's accounts file keeps for the server ("" = none).
func _kept(id: String) -> String:
	var f := ConfigFile.new()
	f.load("user://e2e_account_%s.cfg" % id)
	return String(f.get_value(String(_args.server), "player_id", ""))


func _status(want: String) -> bool:
	if await _until(func() -> bool: return _text("Status") == want, 15.0):
		return true
	return _fail("the screen said %s, not %s" % [_text("Status"), want])


func _text(node: String) -> String:
	return (_screen.find_child(node, true, false) as Label).text


func _type(node: String, text: String) -> void:
	(_screen.find_child(node, true, false) as LineEdit).text = text


func _press(node: String) -> void:
	(_screen.find_child(node, true, false) as Button).pressed.emit()


func _shot(name: String) -> void:
	if not _args.has("out"):
		return
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var path := String(_args.out).path_join("%s_%s.png" % [_prefix, name])
	if image.save_png(path) == OK:
		print("e2e_account: saved ", path)


func _fail(why: String) -> bool:
	printerr("e2e_account: %s: %s (last error %s)" % [_prefix, why, Online.client.get_last_error()])
	return false


func _frames(n: int) -> void:
	await Waits.frames(get_tree(), n)


func _until(cond: Callable, seconds: float) -> bool:
	return await Waits.until(get_tree(), cond, seconds)
