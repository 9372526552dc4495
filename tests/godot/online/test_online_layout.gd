extends GdTestSuite
## The Online menu, the quick-match wait and the lobby at 1280×720, 2560×1080 (21:9), 1024×768 (4:3) and 2340×1080
## (phone), in a SubViewport resized live: every shown button lies inside the screen, is big
## enough to tap (44 px), and no two shown buttons or labels with text overlap. The lobby is
## drawn from a full room (as room_changed delivers it) with the player in seat 1 and free seats
## showing "Sit here". (The online table's overlays need a server: tools/test-online --shots.)

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


func test_the_lobby_fits_every_screen_and_offers_free_seats() -> void:
	_problems.clear()
	_checked = 0
	Online.seat = 1
	var sits := []
	var marks := {}
	var heights := {}
	await _at_every_size("res://online/lobby.tscn", func(s: Control) -> void:
		s._refresh(_room())
		for i in 4:
			var row := s.find_child("Seat%d" % i, true, false) as Control
			sits.append((row.find_child("SitHere", true, false) as Button).visible)
			marks[i] = (row.find_child("ReadyMark", true, false) as Label).text
			heights[row.get_combined_minimum_size().y] = true)
	# Nobody sits in a free seat, so it is neither ready nor not ready (it said "Not ready").
	expect_eq(marks[2], "", "a free seat has no ready mark")
	expect(marks[0] != "" and marks[1] != "" and marks[3] != "", "taken seats say whether they are ready: %s" % [marks])
	expect(_checked >= 4 * 15, "the lobby's buttons and labels were checked (%d)" % _checked)
	expect_eq(sits, [false, false, true, false], "only the free seat (2) offers Sit here")
	# A free seat (with its Sit here button) is as tall as a taken one: rows do not jump when a
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
	lobby._refresh(room)
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
