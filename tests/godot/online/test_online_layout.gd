extends GdTestSuite
## The Online menu, the quick-match wait, the leaderboard, a profile and the lobby at 1280×720, 2560×1080 (21:9), 1024×768 (4:3) and 2340×1080
## (phone), in a SubViewport resized live: every shown button lies inside the screen, is big
## enough to tap (44 px), and no two shown buttons or labels with text overlap. The lobby is
## drawn from a full room (as room_changed delivers it) with the player in seat 1 and free seats
## showing "Sit". (The online table's overlays need a server: tools/test-online --shots.)

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(2560, 1080), Vector2i(1024, 768), Vector2i(2340, 1080)]
const MIN_TAP := 44.0

var _problems: Array[String] = []
var _checked := 0  # controls checked: the test must look at something


func after_each() -> void:
	Online.seat = -1


func _room() -> Dictionary:
	var seats: Array = []
	for i in 4:
		seats.append({seat = i, player = "Ann" if i == 0 else ("Bob" if i == 1 else ""), ai = 2 if i == 3 else 0,
			ready = i == 1, connected = true, hosted = false})
	return {code = "K7QX2M", state = "waiting", host_seat = 0, rules = "competition", spectator_delay = 3,
		spectators = 2, locked = false, matches = 0, seats = seats}


func _check(screen: Control, where: String, at: Vector2i) -> void:
	var bounds := Rect2(Vector2.ZERO, Vector2(at))
	var items: Array[Control] = []
	for n in screen.find_children("*", "Control", true, false):
		var c := n as Control
		if not c.is_visible_in_tree():
			continue
		if c is Button or (c is Label and (c as Label).text != ""):
			items.append(c)
	_checked += items.size()
	for c in items:
		var r := c.get_global_rect()
		if not bounds.encloses(r.grow(-0.5)):
			_problems.append("%s %s: %s at %s is outside the screen" % [where, at, c.name, r])
		if c is Button and r.size.y < MIN_TAP:
			_problems.append("%s %s: %s is %d px high, too small to tap" % [where, at, c.name, r.size.y])
	for i in items.size():
		for j in range(i + 1, items.size()):
			var a := items[i]
			var b := items[j]
			if a.is_ancestor_of(b) or b.is_ancestor_of(a):
				continue
			if a.get_global_rect().grow(-1.0).intersects(b.get_global_rect().grow(-1.0)):
				_problems.append("%s %s: %s overlaps %s" % [where, at, a.name, b.name])


func _at_every_size(path: String, prepare: Callable) -> void:
	var viewport := SubViewport.new()
	viewport.size = SIZES[0]
	viewport.disable_3d = true
	add_child(viewport)
	var screen: Control = load(path).instantiate()
	viewport.add_child(screen)
	await frames(2)
	prepare.call(screen)
	for at in SIZES:
		viewport.size = at
		await frames(3)
		_check(screen, path.get_file(), at)
	viewport.queue_free()


func test_the_online_menu_fits_every_screen() -> void:
	_problems.clear()
	_checked = 0
	await _at_every_size("res://online/online_menu.tscn", func(_s: Control) -> void: pass)
	expect(_checked >= 4 * 8, "the menu's buttons and labels were checked (%d)" % _checked)
	expect_eq(_problems, [] as Array[String], "online menu layout")


func test_the_quick_match_wait_fits_every_screen() -> void:
	_problems.clear()
	_checked = 0
	var texts := []
	await _at_every_size("res://online/quick_search.tscn", func(s: Control) -> void:
		s._on_queue_status("huaian", true, 12_500, 3)
		texts.append((s.find_child("Found", true, false) as Label).text))
	expect(_checked >= 4 * 6, "the wait's buttons and labels were checked (%d)" % _checked)
	expect_eq(texts, [tr("QUICK_FOUND_FMT").format({found = 3})], "players found as the server said")
	expect_eq(_problems, [] as Array[String], "quick-match wait layout")


## A leaderboard page as `leaderboard_received` delivers it: 8 players, the player's own at rank 3.
static func _board(me: String) -> Dictionary:
	var entries := []
	for i in 8:
		entries.append({rank = i + 1, player_id = me if i == 2 else "p%d" % i, nickname = "玩家%d" % i if i % 2 else "Player %d" % i,
			rating = 1400 - 37 * i, matches = 30 - i, wins = 20 - 2 * i})
	return {rules = "competition", page = 0, per_page = 50, total = 120, entries = entries}


## A client of its own for the screens (no server known, whatever earlier tests connected to):
## their own request is refused at once, the same on every run.
func _fresh_client() -> Node:
	var saved: Node = Online.client
	Online.client = GuandanClient.new()
	add_child(Online.client)
	return saved


func _restore_client(saved: Node) -> void:
	Online.client.queue_free()
	Online.client = saved


func test_the_leaderboard_fits_every_screen_and_marks_the_player() -> void:
	_problems.clear()
	_checked = 0
	var saved := _fresh_client()
	var me: String = Online.client.get_player_id()
	var seen := {}
	Online.board_rules = "competition"
	await _at_every_size("res://online/leaderboard.tscn", func(s: Control) -> void:
		s._on_board(LeaderboardPage.parse(JSON.stringify(_board(me))))
		var row: Control = s.find_child("Row3", true, false)
		seen.mine = (row.find_child("Nickname", true, false) as Label).text
		seen.other = (s.find_child("Row1", true, false).find_child("Nickname", true, false) as Label).text
		seen.rate = (s.find_child("Row1", true, false).find_child("WinRate", true, false) as Label).text
		seen.page = (s.find_child("Page", true, false) as Label).text
		seen.prev = (s.find_child("Prev", true, false) as Button).disabled
		seen.next = (s.find_child("Next", true, false) as Button).disabled
		# An answer to another page (asked before, answered late) changes nothing.
		var late := _board("x")
		late.page = 1
		s._on_board(LeaderboardPage.parse(JSON.stringify(late)))
		seen.after_late = (s.find_child("Row3", true, false).find_child("Nickname", true, false) as Label).text)
	_restore_client(saved)
	# No server here: the screen's own request is refused at once (and said), then the page is given.
	expect_logged("fetch_leaderboard: rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	expect_eq(seen.mine, tr("LEADERBOARD_YOU_FMT").format({name = "Player 2"}), "the player's own row says so")
	expect_eq(seen.other, "Player 0", "other players' names as they are")
	expect_eq(seen.rate, "67%", "win rate from matches and wins (20 of 30)")
	expect_eq(seen.page, tr("LEADERBOARD_PAGE_FMT").format({page = 1, pages = 3}), "120 players, 50 a page")
	expect(seen.prev and not seen.next, "first of three pages: no previous, a next")
	expect_eq(seen.after_late, seen.mine, "a late answer for another page is not shown")
	expect(_checked >= 4 * 40, "the leaderboard's rows were checked (%d)" % _checked)
	expect_eq(_problems, [] as Array[String], "leaderboard layout")


func test_a_profile_fits_every_screen_and_draws_the_rating() -> void:
	_problems.clear()
	_checked = 0
	var saved := _fresh_client()
	Online.profile_player = "p7"
	Online.board_rules = "huaian"
	var history := []
	for i in 6:
		history.append({at = 1_000 * i, rating = 1000 + 15 * i, change = 15})
	var profile := {player_id = "p7", nickname = "小红", stats = {matches = 12, wins = 7, win_rate = 7.0 / 12.0,
		double_down_rate = 0.25, bombs_per_deal = 0.8},
		ratings = [{rules = "competition", rating = 990, matches = 2, wins = 0, draws = 0, history = []},
			{rules = "huaian", rating = 1075, matches = 6, wins = 6, draws = 0, history = history}]}
	var seen := {}
	await _at_every_size("res://online/profile.tscn", func(s: Control) -> void:
		s._on_profile(PlayerProfile.parse(JSON.stringify(profile)))
		seen.title = (s.find_child("Title", true, false) as Label).text
		seen.rating = (s.find_child("Rating", true, false) as Label).text
		seen.win = (s.find_child("WinRate", true, false) as Label).text
		seen.chart = (s.find_child("Chart", true, false) as StatsChart).values
		seen.rules = (s.find_child("Rules", true, false) as OptionButton).item_count)
	_restore_client(saved)
	Online.profile_player = ""
	Online.board_rules = "competition"
	expect_logged("fetch_profile: rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	expect_eq(seen.title, "小红", "the nickname as the title")
	expect_eq(seen.rating, "1075", "the rating under the leaderboard's rules (huaian)")
	expect_eq(seen.win, "58%", "win rate over the stored matches")
	expect_eq(seen.rules, 2, "one option per rule preset rated")
	# The start (1000 − 15… the first point's rating minus its change) and each match after.
	expect_eq(Array(seen.chart), [985.0, 1000.0, 1015.0, 1030.0, 1045.0, 1060.0, 1075.0], "the rating's course")
	expect(_checked >= 4 * 10, "the profile's labels were checked (%d)" % _checked)
	expect_eq(_problems, [] as Array[String], "profile layout")


func test_the_lobby_fits_every_screen_and_offers_free_seats() -> void:
	_problems.clear()
	_checked = 0
	Online.seat = 1
	var sits := []
	var marks := {}
	var heights := {}
	await _at_every_size("res://online/lobby.tscn", func(s: Control) -> void:
		s._refresh(OnlineRoom.parse(JSON.stringify(_room())))
		for i in 4:
			var row := s.find_child("Seat%d" % i, true, false) as Control
			sits.append((row.find_child("SitHere", true, false) as Button).visible)
			marks[i] = (row.find_child("ReadyMark", true, false) as Label).text
			heights[row.get_combined_minimum_size().y] = true)
	# Nobody sits in a free seat, so it is neither ready nor not ready (it said "Not ready").
	expect_eq(marks[2], "", "a free seat has no ready mark")
	expect(marks[0] != "" and marks[1] != "" and marks[3] != "", "taken seats say whether they are ready: %s" % [marks])
	expect(_checked >= 4 * 15, "the lobby's buttons and labels were checked (%d)" % _checked)
	expect_eq(sits, [false, false, true, false], "only the free seat (2) offers Sit")
	# A free seat (with its Sit button) is as tall as a taken one: rows do not jump when a
	# seat is filled (seen: the rows moved under the pointer as AI seats were set).
	expect_eq(heights.size(), 1, "every seat row is as tall as the others: %s" % [heights.keys()])
	expect_eq(_problems, [] as Array[String], "lobby layout")


## Player-chosen text is shown as typed, never interpreted (issue 22): a nickname that is a
## translation key, BBCode or a format placeholder appears literally in the lobby — each name is a
## plain Label (no BBCode) whose auto-translation is off, so what it draws is what the player
## typed. The server refuses markup and braces in new nicknames; this covers the game's side.
func test_the_lobby_shows_nicknames_as_typed() -> void:
	Online.seat = 1
	var names := ["Ann", "Bob", "ONLINE_HOST_MARK", "[b]x[/b] {seat} %s"]
	var room := _room()
	for i in 4:
		room.seats[i].player = names[i]
		room.seats[i].ai = 0
	var lobby: Control = load("res://online/lobby.tscn").instantiate()
	add_child(lobby)
	await frames(2)
	lobby._refresh(OnlineRoom.parse(JSON.stringify(room)))
	await frames(1)
	for i in [2, 3]:
		# A plain Label (a RichTextLabel would read BBCode in a nickname).
		var node: Node = lobby.find_child("Seat%d" % i, true, false).find_child("Name", true, false)
		expect(node is Label, "seat %d's name is a plain Label, not %s" % [i, node])
		if not node is Label:
			continue
		var label := node as Label
		expect_eq(label.text, names[i], "seat %d's name as typed" % i)
		expect_eq(label.atr(label.text), names[i], "seat %d's name is drawn untranslated" % i)
	expect_ne(tr("ONLINE_HOST_MARK"), "ONLINE_HOST_MARK", "the key is a real translation (the test means something)")
	lobby.queue_free()
