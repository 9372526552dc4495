extends Node
## Screenshots of online play, in a window (tools/test-online --shots runs it under Xvfb against
## a real guandan-server for each language and resolution): the Online home, Settings (its server address), the lobby, the
## online table mid-deal, a surrender vote, the hosting indicator, the reconnect overlay and the
## spectator view (the host lets spectators see its own team's hands: the view shows them), the home again with the rating a ranked match gave. South is the game itself (the app, driven through its screens); the partner
## in seat 2 is a second GuandanClient in this process that plays by the advisor's first hint.
##
## Args after `--`: --server HOST:PORT --out DIR --locale en|zh_CN
## Writes DIR/online_<locale>_<W>x<H>_<shot>.png. Exit code 0 = every shot saved.

const SHOTS: Array[String] = ["online_menu", "settings", "lobby", "online_table", "surrender_vote", "hosting", "reconnect",
	"spectator", "quick_search", "quick_table", "quick_rating", "online_home_rated", "leaderboard", "profile"]

var _args := {"locale": "en"}
var _app: Control
var _partner: GuandanClient
## The partner's match: an engine following its client (no screen).
var _partner_match: GuandanEngine
var _partner_help: MoveAdvisor
var _partner_acted := -1
var _south_acted := -1
var _partner_idle := false
## Frames left to cast the partner's "yes" to a surrender proposal (0 = none asked).
var _partner_vote_frames := 0
var _prefix := ""
var _saved: Array[String] = []


func _ready() -> void:
	var user := OS.get_cmdline_user_args()
	for i in range(0, user.size() - 1):
		if user[i].begins_with("--"):
			_args[user[i].substr(2)] = user[i + 1]
	Settings.use_file_for_tests("")
	_trust(Online.client)
	Settings.set_value(&"locale", String(_args.locale))
	Settings.set_value(&"anim_speed", 2.0)
	var win := DisplayServer.window_get_size()
	_prefix = "online_%s_%dx%d" % [_args.locale, win.x, win.y]
	if _args.has("out"):
		DirAccess.make_dir_recursive_absolute(String(_args.out))
	_app = load("res://ui/app.tscn").instantiate()
	add_child(_app)
	var ok: bool = await _run()
	if not ok:
		printerr("online_tour: %s failed" % _prefix)
	if _partner != null:
		_partner.disconnect_from_server()
	Online.client.disconnect_from_server()
	get_tree().quit(0 if _complete(ok) else 1)


## Whether the run did its job (here: every shot saved; a scene built on this one decides its own).
func _complete(ok: bool) -> bool:
	return ok and _saved.size() == SHOTS.size()


func _run() -> bool:
	var menu: Control = await _online_menu("小明" if _args.locale == "zh_CN" else "Ann")
	if menu == null:
		return false
	await _shot("online_menu")
	# The server address lives in Settings, one tap from the home; Back leads home again.
	(menu.find_child("OpenSettings", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"settings", 5.0):
		return _fail("the home's Settings opened no Settings")
	await _frames(10)
	await _shot("settings")
	(_app.current.find_child("Back", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"online", 5.0):
		return _fail("Settings' Back did not lead home")
	await _frames(10)
	menu = _app.current
	if not await _create_room(menu):
		return false
	var c: Node = Online.client
	c.set_seat(1, 2)
	# The partner joins (the first free seat is 2 once seat 1 is an AI seat).
	if not await _partner_online("North" if _args.locale == "en" else "小红"):
		return _fail("partner offline")
	var room_code: String = c.get_room_code()
	_partner.join_room(room_code)
	if not await _until(func() -> bool: return String(c.get_room().seats[2].player) != "", 10.0):
		return _fail("the partner did not sit")
	await _frames(30)
	await _shot("lobby")
	c.set_seat(3, 1)
	# Ready is taken once the room is full (its ready check).
	if not await _until(func() -> bool: return int(c.get_room().seats[3].ai) == 1, 10.0):
		return _fail("seat 3 not filled")
	# Spectators will see south's team's hands (seats 0 and 2).
	var hands: OptionButton = _app.current.find_child("SpectatorHands", true, false)
	hands.select(1)
	hands.item_selected.emit(1)
	if not await _until(func() -> bool: return c.get_room() != null and c.get_room().spectator_hands == 0, 10.0):
		return _fail("spectators are not shown our team's hands: " + c.get_last_error())
	await _frames(5)
	var ot: Control = await _start_with_partner(2, 0)
	if ot == null:
		return false
	# Play a while (both people by the advisor's first hint), then the table mid-deal.
	if not await _play_until(func() -> bool: return ot.table.controller.action_count() >= 24, 90.0, ot):
		return _fail("the match did not go on")
	await _settle(ot)
	await _shot("online_table")
	# The partner proposes to give up: south is asked.
	await _until(func() -> bool: return ot.table.controller.phase() == GuandanEngine.PHASE_PLAY, 20.0)
	# One intent at a time, and a proposal made for a position that moved on is refused: the
	# partner tries again until south is asked.
	var refused := [0]
	_partner_match.error.connect(func(_code: int, _m: String) -> void: refused[0] += 1)
	var asked := false
	for attempt in 30:
		if ot.votes.is_open():
			asked = true
			break
		var before: int = refused[0]
		if _partner_match.propose_surrender() == 0:
			asked = await _play_until(func() -> bool: return ot.votes.is_open() or refused[0] > before, 5.0, ot) \
				and ot.votes.is_open()
			if asked:
				break
		await _play_until(func() -> bool: return false, 0.3, ot)
	if not asked:
		return _fail("no surrender vote dialog")
	await _frames(20)
	await _shot("surrender_vote")
	ot.votes.press(&"no")
	# The vote is refused: the match goes on.
	await _play_until(func() -> bool: return false, 3.0, ot)
	var after_vote: MatchState = ot.table.controller.state()
	if after_vote != null and after_vote.over:
		return _fail("the match ended although south refused to give up")
	# The partner's connection goes for a while: the server's AI hosts seat 2 (blinking badge).
	_partner.drop_connection_for_test(9000)
	if not await _play_until(func() -> bool: return ot.table.badges[2].auto_play, 30.0, ot):
		return _fail("no hosting indicator")
	await _play_until(func() -> bool: return false, 2.0, ot)
	await _settle(ot)
	await _shot("hosting")
	if not await _play_until(func() -> bool: return _partner.is_online() and not ot.table.badges[2].auto_play, 30.0, ot):
		return _fail("the partner did not come back")
	# South's own connection drops: the overlay blocks the table until the full state is back.
	c.drop_connection_for_test(6000)
	if not await _until(func() -> bool: return ot.reconnect_layer.visible, 10.0):
		return _fail("no reconnect overlay")
	await _frames(30)
	await _shot("reconnect")
	if not await _until(func() -> bool: return not ot.reconnect_layer.visible, 40.0):
		return _fail("the overlay did not go")
	# South leaves its seat to the AI and watches the room as a spectator. The partner stops
	# playing, so its turns wait for the server's turn clock and the match is still on.
	_partner_idle = true
	var code_text: String = c.get_room_code()
	c.leave_room()
	if await Online.enter(&"spectate", code_text) != 0:
		return _fail("spectate: " + c.get_last_error())
	EventBus.match_requested.emit(Online.table_config())
	if not await _until(func() -> bool: return _app.current_name == &"online_table" and _app.current != ot, 10.0):
		return _fail("no spectator table")
	var st: Control = _app.current
	if not await _until(func() -> bool: return is_instance_valid(st) and st.table != null and st.table.spectator, 20.0):
		return _fail("the spectator table did not come")
	await _play_until(func() -> bool: return false, 4.0, st)
	var shown: Control = st.find_child("ShownHands", true, false)
	if shown == null or shown.get_child_count() != 2 or not shown.visible:
		return _fail("the spectator is not shown team 0's two hands")
	await _settle(st)
	await _shot("spectator")
	# Quick match from the Online menu: another person queues too (a second guest in this
	# process); the matchmaker seats two players as partners against two AI seats and the ranked
	# match opens at the online table. (A ranked match is given up only when both partners agree:
	# an AI partner never does, so no one gives rated matches away through it.)
	c.leave_room()
	_partner_idle = false
	if not await _partner_online("North Q" if _args.locale == "en" else "小红Q"):
		return _fail("the quick-match partner is offline")
	# The partner agrees: its vote is cast before it plays on (_north), and cast again on a later
	# frame if its view refused it (seen once: a play of its own crossed the proposal).
	_partner_match.surrender_proposed.connect(func(_seat: int) -> void: _partner_vote_frames = 300)
	_partner_help = MoveAdvisor.new()
	_partner_help.attach(_partner_match)
	if _partner.queue_join("competition") != 0:
		return _fail("the partner could not queue: " + _partner.get_last_error())
	EventBus.screen_requested.emit(&"online")
	if not await _until(func() -> bool: return _app.current_name == &"online", 10.0):
		return _fail("no Online menu")
	var quick_menu: Control = _app.current
	# The account still holds its seat in the first room (left mid-match, the seat is kept for
	# it: one seat per account), so the quick match is played as another guest.
	(quick_menu.find_child("Nickname", true, false) as LineEdit).text = _quick_name()
	(quick_menu.find_child("Quick", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"quick_search", 10.0):
		return _fail("no quick-match wait: " + Online.last_message)
	await _frames(12)
	await _shot("quick_search")
	if not await _until(func() -> bool: return _app.current_name == &"online_table", 20.0):
		return _fail("no table from the quick match")
	var qt: Control = _app.current
	if not await _until(func() -> bool: return is_instance_valid(qt) and qt.table != null and qt.table.controller != null \
			and qt.table.controller.has_match(), 20.0):
		return _fail("the quick-match table did not come")
	await _play_until(func() -> bool: return qt.table.controller.action_count() >= 8, 60.0, qt)
	await _settle(qt)
	await _shot("quick_table")
	# South gives the ranked match up (the partner agrees, an AI opponent accepts): the result's
	# panel gets the new rating and its change when the server has stored and rated the match.
	var rated := []
	c.rating_changed.connect(func(_r: String, rating: int, change: int, _m: int) -> void: rated.append([rating, change]))
	# One intent at a time, and a proposal made for a position that moved on is refused: south
	# proposes again until the match is over.
	for attempt in 20:
		if qt.table.match_over:
			break
		qt.table.controller.propose_surrender()
		await _play_until(func() -> bool: return qt.table.match_over, 3.0, qt)
	var on_panel := func() -> bool:
		if rated.is_empty() or not qt.table.modal.is_open():
			return false
		for l in qt.table.modal.find_children("*", "Label", true, false):
			if str(rated[0][0]) in (l as Label).text:
				return true
		return false
	if not await _until(on_panel, 30.0):
		return _fail("no rating on the result's panel after the ranked match (%s)" % [rated])
	if int(rated[0][1]) >= 0:
		return _fail("a surrendered match raised the rating: %s" % [rated])
	await _frames(20)
	await _shot("quick_rating")
	# The leaderboard from the Online menu: the player's ranked match put them on it, their row
	# marked; their row opens their profile with the rating's course.
	EventBus.screen_requested.emit(&"online")
	if not await _until(func() -> bool: return _app.current_name == &"online", 10.0):
		return _fail("no Online menu after the quick match")
	# The home, still online, puts the player first: the rating the match gave on the player card.
	var rating_label: Label = _app.current.find_child("Rating", true, false)
	if not await _until(func() -> bool: return str(rated[0][0]) in rating_label.text, 10.0):
		return _fail("the home's player card does not show the rating %s: %s" % [rated[0][0], rating_label.text])
	await _frames(10)
	await _shot("online_home_rated")
	(_app.current.find_child("Leaderboard", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"leaderboard", 10.0):
		return _fail("no leaderboard: " + Online.last_message)
	var board: Control = _app.current
	var mine := tr("LEADERBOARD_YOU_FMT").format({name = _quick_name()})
	var own_row := func() -> Button:
		for row in board.find_children("Row*", "Button", true, false):
			if (row.find_child("Nickname", true, false) as Label).text == mine:
				return row
		return null
	if not await _until(func() -> bool: return own_row.call() != null, 10.0):
		return _fail("the player is not on the leaderboard: %s" % (board.find_child("Status", true, false) as Label).text)
	var row: Button = own_row.call()
	if (row.find_child("Rating", true, false) as Label).text != str(rated[0][0]):
		return _fail("the leaderboard's rating %s is not the match's %s" % [(row.find_child("Rating", true, false) as Label).text, rated[0][0]])
	await _frames(10)
	await _shot("leaderboard")
	row.pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"profile" and (_app.current.find_child("Content", true, false) as Control).visible, 15.0):
		return _fail("no profile")
	var chart: StatsChart = _app.current.find_child("Chart", true, false)
	# The start, then one point per ranked match of this account (the tour may have played one
	# with it already, at another size), ending at the rating the match gave.
	if chart.values.size() < 2 or int(chart.values[-1]) != int(rated[0][0]):
		return _fail("the profile's rating course is %s, not ending at %s" % [chart.values, rated[0][0]])
	await _frames(10)
	await _shot("profile")
	return true


## The Online menu from the app, the server set (Settings) and `nickname` typed in (null after saying why not).
func _online_menu(nickname: String) -> Control:
	await _frames(20)
	EventBus.screen_requested.emit(&"online")
	if not await _until(func() -> bool: return _app.current_name == &"online", 5.0):
		_fail("no online menu")
		return null
	await _frames(20)
	var menu: Control = _app.current
	Settings.set_value(&"online_server", String(_args.server))
	menu.refresh_server()
	menu.find_child("Nickname", true, false).text = nickname
	await _frames(5)
	return menu


## Creates a room from the Online menu and waits for its lobby.
func _create_room(menu: Control) -> bool:
	var code: int = await menu.go(&"create")
	if code != 0:
		return _fail("create: %d %s" % [code, Online.client.get_last_error()])
	return await _until(func() -> bool: return _app.current_name == &"lobby", 5.0) or _fail("no lobby")


## `--ca-file PEM` (tools/test-online --tls): the client trusts the test's own CA besides
## Mozilla's roots, as a player's "trusted CA file" setting would. A refused file fails the run.
func _trust(client: GuandanClient) -> void:
	if not _args.has("ca-file"):
		return
	# The game's own client as a player's setting would (Online applies it before connecting).
	var rc: int = Online.trust_ca_file_for_this_run(String(_args["ca-file"])) if client == Online.client \
		else client.set_ca_file(String(_args["ca-file"]))
	if rc != 0:
		printerr("online test: the CA file was refused: " + client.get_last_error())
		get_tree().quit(1)


## The partner: a second GuandanClient in this process with an engine following it, online.
func _partner_online(nickname: String) -> bool:
	_partner = GuandanClient.new()
	add_child(_partner)
	_trust(_partner)
	_partner_match = GuandanEngine.new()
	add_child(_partner_match)
	_partner_match.follow(_partner)
	_partner.connect_to_server(String(_args.server), nickname)
	return await _until(func() -> bool: return _partner.is_online(), 15.0)


## From the lobby: the partner (in `partner_seat`) and the game (in `own_seat`) say they are
## ready, the game starts the match; the online table (null after saying why not).
func _start_with_partner(partner_seat: int, own_seat: int) -> Control:
	var c: Node = Online.client
	_partner.set_ready(true)
	if not await _until(func() -> bool: return bool(c.get_room().seats[partner_seat].ready), 10.0):
		_fail("the partner is not ready")
		return null
	var lobby: Control = _app.current
	(lobby.find_child("Ready", true, false) as Button).button_pressed = true
	(lobby.find_child("Ready", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return bool(c.get_room().seats[own_seat].ready), 10.0):
		_fail("not ready")
		return null
	(lobby.find_child("Start", true, false) as Button).pressed.emit()
	if not await _until(func() -> bool: return _app.current_name == &"online_table", 15.0):
		_fail("no online table: " + c.get_last_error())
		return null
	_partner_help = MoveAdvisor.new()
	_partner_help.attach(_partner_match)
	return _app.current


## The quick match's player (a guest of its own).
func _quick_name() -> String:
	return "小明Q" if _args.locale == "zh_CN" else "AnnQ"


## Frames pass; each person acts when it is their turn; deal panels are closed.
func _play_until(cond: Callable, seconds: float, ot: Control) -> bool:
	var until := Time.get_ticks_msec() + int(seconds * 1000.0)
	while not cond.call():
		if Time.get_ticks_msec() > until:
			return false
		await _frames(1)
		if ot == null or ot.table == null:
			continue
		var table: Table = ot.table
		# Deal panels are closed; the match's result stays (its buttons leave the table).
		if table.modal.is_open() and not table.match_over:
			table.modal.press(&"next")
		_south(table)
		_north()
	return true


func _south(table: Table) -> void:
	var mc: MatchController = table.controller
	if mc == null or not table.is_idle() or table.duty == &"" or mc.action_count() == _south_acted:
		return
	var code := -1
	match table.duty:
		&"play":
			var hints: Array = mc.advice.hints(1)
			if not hints.is_empty() and not hints[0].passed:
				code = mc.play(PackedInt32Array(hints[0].play.cards))
			elif table.can_pass:
				code = mc.pass_turn()
		&"tribute":
			code = mc.give_tribute(mc.tribute_options()[0])
		&"return":
			code = mc.return_card(mc.return_options()[0])
	if code == 0:
		_south_acted = mc.action_count()


func _north() -> void:
	if _partner_vote_frames > 0 and _partner_match != null:
		_partner_vote_frames -= 1
		if _partner_match.surrender_vote(true) == 0:
			_partner_vote_frames = 0
		return
	if _partner_idle or _partner == null or not _partner.is_online() or not _partner_match.is_local_turn():
		return
	if _partner_match.get_action_count() == _partner_acted:
		return
	var code := -1
	match _partner_match.get_phase():
		GuandanEngine.PHASE_PLAY:
			var hints: Array = _partner_help.hints(1)
			if not hints.is_empty() and not hints[0].passed:
				code = _partner_match.play(PackedInt32Array(hints[0].play.cards), -1)
			elif _partner_match.can_pass():
				code = _partner_match.pass_turn()
		GuandanEngine.PHASE_TRIBUTE:
			code = _partner_match.give_tribute(_partner_match.get_tribute_options()[0])
		GuandanEngine.PHASE_RETURN:
			code = _partner_match.return_card(_partner_match.get_return_options()[0])
	if code == 0:
		_partner_acted = _partner_match.get_action_count()


func _settle(ot: Control) -> void:
	await _frames(10)
	if ot != null and ot.table != null:
		await _until(func() -> bool: return not ot.table.banner.is_showing(), 5.0)
	await _frames(10)


func _shot(name: String) -> void:
	if not _args.has("out"):
		return
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var path := String(_args.out).path_join("%s_%s.png" % [_prefix, name])
	if image.save_png(path) == OK:
		_saved.append(path)
		print("online_tour: saved ", path)


func _fail(why: String) -> bool:
	var c: Node = Online.client
	printerr("online_tour: %s: %s (screen %s, last message %s, room %s, match %s, spectator %s, connection %s, messages %d, latency %.0f ms)" % [
		_prefix, why, _app.current_name, Online.last_message, c.get_room().state if c.get_room() != null else "", c.has_match(), c.is_spectator(),
		c.get_connection_state(), c.get_messages_received(), c.get_latency_ms()])
	return false


func _frames(n: int) -> void:
	await Waits.frames(get_tree(), n)


func _until(cond: Callable, seconds: float) -> bool:
	return await Waits.until(get_tree(), cond, seconds)
