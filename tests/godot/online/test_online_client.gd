extends GdTestSuite
## GuandanClient without a server: it is the session only (connection and room signals; the
## match's signals are GuandanEngine's, which follows the client), bad input is refused with a
## code and changes nothing, an unreachable server is reported, and only the online session
## and the MatchController name the class. The whole online path against a real server is
## tools/test-online.

const SESSION := "res://online/online_session.gd"
const CONTROLLER := "res://bridge/match_controller.gd"
## The session's keeper of finished matches' records (a child of the session, given its client).
const RECORDS := "res://bridge/online_records.gd"
## The client's signals: the connection and the room, its own refusals, and the match it copies.
const SESSION_SIGNALS: Array[String] = ["connecting", "connected", "reconnecting", "resynced",
	"disconnected", "protocol_too_old", "room_joined", "room_changed", "room_closed",
	"hosting_changed", "latency_changed", "connection_unstable", "match_stored", "error", "match_joined", "queue_status", "rating_changed",
	"leaderboard_received", "profile_received", "fetch_failed", "record_kept", "account_done", "account_failed"]


func _signals(cls: StringName) -> Dictionary:
	var out := {}
	for info: Dictionary in ClassDB.class_get_signal_list(cls, true):
		var args: Array = []
		for a: Dictionary in info.args:
			args.append([String(a.name), int(a.type)])
		out[String(info.name)] = args
	return out


func test_the_match_signals_are_the_engines_alone() -> void:
	var engine := _signals(&"GuandanEngine")
	var client := _signals(&"GuandanClient")
	expect(engine.size() >= 20, "the engine has its signals (%d)" % engine.size())
	for name: String in client:
		expect(name in SESSION_SIGNALS, "%s is a documented session signal" % name)
		expect(name == "error" or not engine.has(name), "%s is declared once: the engine's" % name)
	for name in SESSION_SIGNALS:
		expect(client.has(name), "the client has the session signal %s" % name)
	expect_eq(client.get("error"), engine.get("error"), "the two error signals have one shape")


func test_an_engine_follows_the_client_and_refuses_what_it_cannot_do() -> void:
	var e := GuandanEngine.new()
	add_child(e)
	var errors: Array = []
	e.error.connect(func(code: int, _m: String) -> void: errors.append(code))
	expect_eq(e.follow(null), GuandanEngine.ERR_BAD_ARGUMENT, "no client to follow")
	expect_logged("GuandanEngine.follow")
	expect_eq(e.follow(Online.client), GuandanEngine.OK)
	# The client drains the network first, the engine announces it next, then every other node
	# (priority 0) reads a copy no further on than the signals it was given.
	expect(Online.client.process_priority < e.process_priority and e.process_priority < 0,
		"process order: client %d, engine %d, the rest 0" % [Online.client.process_priority, e.process_priority])
	expect(not e.has_match() and e.get_hand().is_empty() and e.get_state() == null, "no copy yet: no match")
	expect_eq(e.play(PackedInt32Array([1]), -1), GuandanEngine.ERR_NO_MATCH, "no match: no play")
	expect_logged("GuandanEngine.play")
	expect_eq(e.pass_turn(), GuandanEngine.ERR_NO_MATCH, "no match: no pass")
	expect_logged("GuandanEngine.pass_turn")
	expect_eq(e.get_local_seat(), -1, "no seat")
	expect(not e.prompt_seen(), "nothing to tell the server")
	expect_eq(errors, [GuandanEngine.ERR_BAD_ARGUMENT, GuandanEngine.ERR_NO_MATCH, GuandanEngine.ERR_NO_MATCH],
		"every refusal was also the engine's error signal")
	e.free()


func test_bad_input_is_refused_with_a_code_and_changes_nothing() -> void:
	var c: Node = Online.client
	var errors: Array = []
	var on_error := func(code: int, _m: String) -> void: errors.append(code)
	c.error.connect(on_error)
	expect_eq(c.connect_to_server("", "Ann"), GuandanEngine.ERR_BAD_ARGUMENT, "empty address")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(c.connect_to_server("127.0.0.1:7878", ""), c.ERR_BAD_NICKNAME, "empty nickname")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(c.connect_to_server("127.0.0.1:7878", " Ann"), c.ERR_BAD_NICKNAME, "spaces around")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(c.connect_to_server("127.0.0.1:7878", "x".repeat(25)), c.ERR_BAD_NICKNAME, "too long")
	expect_logged("GuandanClient.connect_to_server")
	expect_eq(c.get_connection_state(), "offline", "a refused call does not connect")
	expect_eq(c.join_room("ABC"), c.ERR_ROOM_NOT_FOUND, "not a room code")
	expect_logged("GuandanClient.join_room")
	expect_eq(c.create_room({}), c.ERR_IO, "offline: nothing to send to")
	expect_logged("GuandanClient.create_room")
	# What spectators see: team 0 or 1, or -1 for no hand; anything else is refused before sending.
	expect_eq(c.create_room({"spectator_hands": 2}), GuandanEngine.ERR_BAD_ARGUMENT, "no team 2")
	expect_logged("GuandanClient.create_room")
	expect_eq(c.set_spectator_hands(-2), GuandanEngine.ERR_BAD_ARGUMENT, "no team -2")
	expect_logged("GuandanClient.set_spectator_hands")
	expect_eq(c.set_spectator_hands(1), c.ERR_IO, "a good team, offline: nothing to send to")
	expect_logged("GuandanClient.set_spectator_hands")
	# A seat is 0-3 (a Seat on the Rust side): anything else is refused before sending, with the range.
	expect_eq(c.set_seat(7, 1), GuandanEngine.ERR_BAD_ARGUMENT, "no seat 7")
	expect_logged("GuandanClient.set_seat")
	expect(c.get_last_error().contains("out of range 0-3"), "the range is said: %s" % c.get_last_error())
	expect_eq(c.change_seat(-1), GuandanEngine.ERR_BAD_ARGUMENT, "no seat -1")
	expect_logged("GuandanClient.change_seat")
	expect_eq(c.set_seat(3, 1), c.ERR_IO, "a good seat, offline: nothing to send to")
	expect_logged("GuandanClient.set_seat")
	expect(not c.has_match(), "no match copied")
	expect_eq(errors.size(), 12, "every refusal was also an error signal")
	c.error.disconnect(on_error)


func test_an_unreachable_server_is_reported() -> void:
	var c: Node = Online.client
	var gone: Array = []
	var on_gone := func(code: int, message: String) -> void: gone.append([code, message])
	c.disconnected.connect(on_gone)
	# Port 1 on loopback: nothing listens there.
	expect_eq(c.connect_to_server("127.0.0.1:1", "Ann"), c.OK)
	expect(await wait_until(func() -> bool: return not gone.is_empty(), 15.0), "disconnected came")
	if not gone.is_empty():
		expect_eq(gone[0][0], c.ERR_IO, "unreachable: ERR_IO")
		expect("127.0.0.1:1" in String(gone[0][1]), "the message names the address: %s" % gone[0][1])
	expect_eq(c.get_connection_state(), "offline")
	expect_eq(Online.error_text(c.ERR_IO) != "ONLINE_ERR_30", true, "a message for the player")
	c.disconnected.disconnect(on_gone)


## The leaderboard and profiles: bad requests are refused at once with a code (and said through
## `fetch_failed`, never the session's `error`); a server that cannot be reached is said too.
func test_leaderboard_and_profile_requests_refuse_bad_input_and_report_a_dead_server() -> void:
	var c: Node = Online.client
	var failed: Array = []
	var errors: Array = []
	var on_failed := func(what: String, code: int, _m: String) -> void: failed.append([what, code])
	var on_error := func(code: int, _m: String) -> void: errors.append(code)
	c.fetch_failed.connect(on_failed)
	c.error.connect(on_error)
	expect_eq(c.fetch_leaderboard("no_such_rules", 0), GuandanEngine.ERR_BAD_ARGUMENT, "unknown rules")
	expect_logged("GuandanClient.fetch_leaderboard")
	expect_eq(c.fetch_leaderboard("competition", -1), GuandanEngine.ERR_BAD_ARGUMENT, "negative page")
	expect_logged("GuandanClient.fetch_leaderboard")
	expect_eq(c.fetch_profile("../metrics"), GuandanEngine.ERR_BAD_ARGUMENT, "not a player id")
	expect_logged("GuandanClient.fetch_profile")
	expect_eq(failed, [["leaderboard", GuandanEngine.ERR_BAD_ARGUMENT], ["leaderboard", GuandanEngine.ERR_BAD_ARGUMENT],
		["profile", GuandanEngine.ERR_BAD_ARGUMENT]], "each refusal said through fetch_failed")
	# The server is the one last connected to; port 1 on loopback: nothing listens there.
	var gone: Array = []
	var on_gone := func(code: int, _m: String) -> void: gone.append(code)
	c.disconnected.connect(on_gone)
	expect_eq(c.connect_to_server("127.0.0.1:1", "Ann"), c.OK)
	await wait_until(func() -> bool: return not gone.is_empty(), 15.0)
	failed.clear()
	expect_eq(c.fetch_leaderboard("huaian", 2), c.OK, "asked")
	expect(await wait_until(func() -> bool: return not failed.is_empty(), 15.0), "fetch_failed came")
	expect_eq(failed, [["leaderboard", c.ERR_IO]], "an unreachable server: ERR_IO")
	expect_eq(errors, [], "no session error for a page")
	c.fetch_failed.disconnect(on_failed)
	c.error.disconnect(on_error)
	c.disconnected.disconnect(on_gone)


## Account calls (issue 36): bad input is refused at once with its code, before anything is sent,
## and said through `account_failed` (never the session's `error`); calls that act for the player
## need an account; a server that cannot be reached is said too.
func test_account_calls_refuse_bad_input_at_once() -> void:
	var c: Node = Online.client
	c.disconnect_from_server()
	var failed: Array = []
	var errors: Array = []
	var on_failed := func(what: String, code: int, _m: String) -> void: failed.append([what, code])
	var on_error := func(code: int, _m: String) -> void: errors.append(code)
	c.account_failed.connect(on_failed)
	c.error.connect(on_error)
	var pw := "long-enough-password"
	expect_eq(c.login_account("127.0.0.1:1", "a", pw), c.ERR_BAD_LOGIN_NAME, "too short a login name")
	expect_logged("GuandanClient.login")
	expect_eq(c.login_account("127.0.0.1:1", "ann lee", pw), c.ERR_BAD_LOGIN_NAME, "a space")
	expect_logged("GuandanClient.login")
	expect_eq(c.login_account("127.0.0.1:1", "ann", "short"), c.ERR_BAD_PASSWORD, "a short password")
	expect_logged("GuandanClient.login")
	expect(not c.get_last_error().contains("short"), "the message never repeats the password: %s" % c.get_last_error())
	expect_eq(c.login_account("", "ann", pw), GuandanEngine.ERR_BAD_ARGUMENT, "no server")
	expect_logged("GuandanClient.login")
	expect_eq(c.redeem_transfer_code("127.0.0.1:1", "ABC"), GuandanEngine.ERR_BAD_ARGUMENT, "not a transfer code")
	expect_logged("GuandanClient.transfer")
	expect_eq(c.claim_account("ann", "short"), c.ERR_BAD_PASSWORD, "a short password to claim")
	expect_logged("GuandanClient.claim")
	expect_eq(c.login_account("guandan.example.com:7878", "ann", pw), c.ERR_PLAINTEXT_NOT_ALLOWED,
		"a password in plain text to a public host is refused until the player allows it")
	expect_logged("GuandanClient.login")
	expect_eq(failed, [["login", c.ERR_BAD_LOGIN_NAME], ["login", c.ERR_BAD_LOGIN_NAME], ["login", c.ERR_BAD_PASSWORD],
		["login", GuandanEngine.ERR_BAD_ARGUMENT], ["transfer", GuandanEngine.ERR_BAD_ARGUMENT],
		["claim", c.ERR_BAD_PASSWORD], ["login", c.ERR_PLAINTEXT_NOT_ALLOWED]], "each refusal said through account_failed")
	# A good login to a server that is not there: said later, as ERR_IO; no account is kept.
	failed.clear()
	expect_eq(c.login_account("127.0.0.1:1", "ann", pw), c.OK, "asked")
	expect(await wait_until(func() -> bool: return not failed.is_empty(), 15.0), "account_failed came")
	expect_eq(failed, [["login", c.ERR_IO]], "an unreachable server: ERR_IO")
	claim_logged("GuandanClient.login")
	expect_eq(errors, [], "no session error for an account call")
	c.account_failed.disconnect(on_failed)
	c.error.disconnect(on_error)


func test_only_the_session_and_the_controller_name_the_client() -> void:
	var re := RegEx.create_from_string("\\bGuandanClient\\b")
	var found := []
	for path in _scripts("res://"):
		var code := _code(FileAccess.get_file_as_string(path))
		if re.search(code) != null:
			found.append(path)
	expect(SESSION in found, "the session names the client")
	for path: String in found:
		expect(path in [SESSION, CONTROLLER, RECORDS], "%s names GuandanClient: go through Online / the controller" % path)


func _scripts(dir: String) -> Array[String]:
	var out: Array[String] = []
	for file in DirAccess.get_files_at(dir):
		if file.ends_with(".gd"):
			out.append(dir.path_join(file))
	for sub in DirAccess.get_directories_at(dir):
		if sub.begins_with(".") or sub == "tests_godot" or sub == "addons":
			continue
		out.append_array(_scripts(dir.path_join(sub)))
	return out


static func _code(text: String) -> String:
	var lines := PackedStringArray()
	for line in text.split("\n"):
		var hash := line.find("#")
		lines.append(line if hash < 0 else line.substr(0, hash))
	return "\n".join(lines)
