extends GdTestSuite
## Issue 39, items 4 and 6: the room lobby is the table, and the end of a deal is a ceremony on
## the table, not a box over it.
## The lobby, drawn from a full room with the player in seat 1 (the host): the four places stand
## around the felt's oval (the player's at the bottom, the others as the table will seat them),
## the room code is a card in the middle with its Copy button, the ready marks hang under the
## portraits (never on a face), names keep clear of the card, the player is "you" once; at 1280×720, 1024×768 and 2340×1080 (the window's stretch) nothing shown overlaps
## and everything is inside the window.
## The end of a deal at the same sizes: the table is not dimmed, the finishers wear their medals
## at their seats, the plaque shows the new levels, and the next-deal buttons (with the deal's
## title and the cards left) cover no portrait, no chip and not the plaque.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var _problems: Array[String] = []


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	_problems.clear()


func after_each() -> void:
	Settings.reset_for_tests()
	Online.seat = -1


func timeout_for(_method: StringName) -> float:
	return 240.0


static func _viewport(px: Vector2i) -> SubViewport:
	return preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)


## Resizes a stretched viewport as a window of `px` would be.
func _resize(vp: SubViewport, px: Vector2i) -> void:
	var fresh := _viewport(px)
	vp.size = fresh.size
	vp.size_2d_override = fresh.size_2d_override
	fresh.free()
	await frames(3)


func _room() -> Dictionary:
	var seats: Array = []
	for i in 4:
		seats.append({seat = i, player = "Annabelle Marguerite" if i == 0 else ("Bob" if i == 1 else ""), ai = 2 if i == 3 else 0,
			ready = i == 1, connected = true, hosted = false})
	return {code = "K7QX2M", state = "waiting", host_seat = 1, rules = "competition", spectator_delay = 3,
		spectators = 2, locked = false, matches = 0, seats = seats}


## The host's controls shown as the host sees them (the client's own room decides who hosts, and
## there is no server here): "AI ▾" on every seat without a person, Start, Disband and the
## spectators' setting — the fullest lobby there is.
static func _as_host(lobby: Control, room: Dictionary) -> void:
	for s: Dictionary in room.seats:
		if String(s.player) == "":
			lobby.find_child("Seat%d" % int(s.seat), true, false).find_child("Fill", true, false).visible = true
	for n in ["Start", "Disband", "SpectatorHands"]:
		(lobby.find_child(n, true, false) as Control).visible = true


## Every shown button and label with text, and the named parts, in the lobby: inside the view and
## not over each other (a label inside a button, or a part's own children, are its own).
func _check_lobby(lobby: Control, where: String) -> int:
	var view := lobby.get_viewport().get_visible_rect()
	var items: Array[Control] = []
	for n in lobby.find_children("*", "Control", true, false):
		var c := n as Control
		if c.is_visible_in_tree() and (c is Button or (c is Label and (c as Label).text != "")):
			items.append(c)
	for c in items:
		if not view.grow(0.5).encloses(c.get_global_rect()):
			_problems.append("%s: %s %s is outside the window %s" % [where, c.name, c.get_global_rect(), view])
	for i in items.size():
		for j in range(i + 1, items.size()):
			var a := items[i]
			var b := items[j]
			if a.is_ancestor_of(b) or b.is_ancestor_of(a):
				continue
			if a.get_global_rect().grow(-1.0).intersects(b.get_global_rect().grow(-1.0)):
				_problems.append("%s: %s %s overlaps %s %s" % [where, a.get_path(), a.get_global_rect(), b.get_path(), b.get_global_rect()])
	# The places and the room card as wholes.
	var parts := {}
	for i in 4:
		parts["seat %d" % i] = (lobby.find_child("Seat%d" % i, true, false) as Control).get_global_rect()
	var card := lobby.find_child("RoomCard", true, false) as Control
	if card != null:
		parts["room card"] = card.get_global_rect()
	var names := parts.keys()
	for i in names.size():
		var ra: Rect2 = parts[names[i]]
		if not view.grow(0.5).encloses(ra):
			_problems.append("%s: %s %s is outside the window %s" % [where, names[i], ra, view])
		for j in range(i + 1, names.size()):
			var rb: Rect2 = parts[names[j]]
			if ra.grow(-1.0).intersects(rb.grow(-1.0)):
				_problems.append("%s: %s %s overlaps %s %s" % [where, names[i], ra, names[j], rb])
	return items.size()


func test_the_lobby_is_the_table_at_every_size() -> void:
	Online.seat = 1
	var checked := 0
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		var vp := _viewport(SIZES[0])
		add_child(vp)
		var felt := preload("res://table/felt.gd").new()
		vp.add_child(felt)
		var lobby: Control = load("res://online/lobby.tscn").instantiate()
		vp.add_child(lobby)
		await frames(2)
		lobby._refresh(OnlineRoom.parse(JSON.stringify(_room())))
		_as_host(lobby, _room())
		for px in SIZES:
			await _resize(vp, px)
			var where := "%s %dx%d" % [locale, px.x, px.y]
			checked += _check_lobby(lobby, where)
			# Free places (with "Sit") are as tall as taken ones: nothing jumps as seats fill.
			var heights := {}
			for i in 4:
				heights[(lobby.find_child("Seat%d" % i, true, false) as Control).size.y] = true
			expect_eq(heights.size(), 1, "%s: the four places are equally tall: %s" % [where, heights.keys()])
			var card := lobby.find_child("RoomCard", true, false) as Control
			expect(card != null and card.is_visible_in_tree(), "%s: the room code is a card" % where)
			if card == null:
				continue
			var code := card.find_child("RoomCode", true, false) as Label
			expect(code != null and code.text == "K7QX2M", "%s: the card shows the room's code" % where)
			expect(card.find_child("Copy", true, false) is Button, "%s: the card has its Copy button" % where)
			var oval: Rect2 = felt.oval
			expect(oval.has_area(), "%s: the lobby asks the felt for the table's oval" % where)
			var c := card.get_global_rect().get_center()
			expect(oval.has_point(c), "%s: the room card %s lies on the felt %s" % [where, card.get_global_rect(), oval])
			# The player (seat 1) at the bottom, seat 3 across the table, seat 2 on the right, seat 0 on the left.
			var faces := {}
			for i in 4:
				var face := lobby.find_child("Seat%d" % i, true, false).find_child("Portrait", true, false) as Control
				expect(face != null and face.is_visible_in_tree(), "%s: seat %d has a portrait" % [where, i])
				if face != null:
					faces[i] = face.get_global_rect()
			if faces.size() < 4:
				continue
			expect((faces[1] as Rect2).position.y > c.y, "%s: the player's place is below the card" % where)
			expect((faces[3] as Rect2).end.y < c.y, "%s: the place across is above the card" % where)
			expect((faces[2] as Rect2).position.x > c.x, "%s: the next place is right of the card" % where)
			expect((faces[0] as Rect2).end.x < c.x, "%s: the place before is left of the card" % where)
			# Each portrait stands at the oval's edge (in its outer part, or on the rim just outside).
			for i in 4:
				var p := (faces[i] as Rect2).get_center() - oval.get_center()
				var d := Vector2(p.x / (oval.size.x / 2.0), p.y / (oval.size.y / 2.0)).length()
				expect(d > 0.45 and d < 1.35, "%s: seat %d's portrait stands at the oval's edge (%.2f of the way out)" % [where, i, d])
			# Ready marks are chips under the names, covering none of a face (issue 54: a chip on the
			# face hid it): the player is ready, the AI seat too, seat 2 is free.
			for i in [1, 3]:
				var mark := lobby.find_child("Seat%d" % i, true, false).find_child("ReadyMark", true, false) as Label
				var mr := mark.get_global_rect()
				var nr := (lobby.find_child("Seat%d" % i, true, false).find_child("Name", true, false) as Control).get_global_rect()
				expect(mark.text != "" and mr.position.y >= nr.end.y - 0.5 and mr.position.x >= nr.position.x - 0.5,
					"%s: seat %d's ready mark %s stands under its name %s" % [where, i, mr, nr])
			# Names keep clear of the code card (issue 54: a long name ran into it).
			var card_rect := card.get_global_rect()
			for i in 4:
				var name_label := lobby.find_child("Seat%d" % i, true, false).find_child("Name", true, false) as Label
				var nr := name_label.get_global_rect()
				expect(not nr.grow(12.0).intersects(card_rect), "%s: seat %d's name %s keeps 12 lp from the code card %s" % [where, i, nr, card_rect])
			# The player is "you" once: "Ann (you)" with no "You" under it.
			var mine := lobby.find_child("Seat1", true, false)
			var said := (mine.find_child("Name", true, false) as Label).text.count(tr("ONLINE_YOU_MARK"))
			var under := mine.find_child("Where", true, false) as Label
			expect(said == 1 and (not under.is_visible_in_tree() or under.text == "" or tr(under.text) != tr("SEAT_0")),
				"%s: the player's place says 'you' once (%s / %s)" % [where, (mine.find_child("Name", true, false) as Label).text, tr(under.text)])
			# No mark shown ("Ready", Ann's "Not ready") covers any portrait.
			var marks_shown := 0
			for i in 4:
				var mark := lobby.find_child("Seat%d" % i, true, false).find_child("ReadyMark", true, false) as Label
				if not mark.is_visible_in_tree():
					continue
				marks_shown += 1
				var mr := mark.get_global_rect()
				for j in 4:
					expect(not mr.intersects(faces[j]), "%s: seat %d's mark \"%s\" %s covers no portrait (seat %d's %s)" % [where, i, mark.text, mr, j, faces[j]])
			expect_eq(marks_shown, 3, "%s: Ann's, Bob's and the AI's marks are shown" % where)
		# The Copy button says so (the clipboard itself is the platform's).
		(lobby.find_child("Copy", true, false) as Button).pressed.emit()
		expect_eq((lobby.find_child("Status", true, false) as Label).text, tr("ONLINE_COPIED"), "%s: Copy says the code was copied" % locale)
		lobby.queue_free()
		await frames(2)
		expect(not felt.oval.has_area(), "%s: leaving the lobby gives the other screens their plain cloth" % locale)
		vp.queue_free()
		await frames(1)
	expect(checked >= 2 * 3 * 15, "the lobby's buttons and labels were checked (%d)" % checked)
	expect_eq(_problems, [] as Array[String], "lobby layout")


## The quick-match wait is the same table filling up: with three players found, three places are
## taken (the player's at the bottom) and one is still free; the card with the count sits on the
## felt; nothing overlaps at any size.
func test_the_quick_match_wait_is_the_table_filling_up() -> void:
	var checked := 0
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		var vp := _viewport(SIZES[0])
		add_child(vp)
		var felt := preload("res://table/felt.gd").new()
		vp.add_child(felt)
		var wait: Control = load("res://online/quick_search.tscn").instantiate()
		vp.add_child(wait)
		await frames(2)
		wait._on_queue_status("huaian", true, 12_500, 3)
		for px in SIZES:
			await _resize(vp, px)
			var where := "%s %dx%d" % [locale, px.x, px.y]
			checked += _check_lobby(wait, where)
			var oval: Rect2 = felt.oval
			expect(oval.has_area(), "%s: the wait asks the felt for the table's oval" % where)
			var found := wait.find_child("Found", true, false) as Label
			expect(oval.has_point(found.get_global_rect().get_center()), "%s: the count lies on the felt" % where)
			var taken := []
			for i in 4:
				taken.append((wait.find_child("Seat%d" % i, true, false).find_child("Portrait", true, false) as CanvasItem).modulate.a > 0.9)
			expect_eq(taken, [true, true, true, false], "%s: three places taken, one free" % where)
			var me := (wait.find_child("Seat0", true, false) as Control).get_global_rect()
			expect(me.position.y > found.get_global_rect().end.y, "%s: the player's place is at the bottom" % where)
		wait.queue_free()
		await frames(2)
		vp.queue_free()
		await frames(1)
	expect(checked >= 2 * 3 * 10, "the wait's buttons and labels were checked (%d)" % checked)
	expect_eq(_problems, [] as Array[String], "quick-match wait layout")


## The portraits, chips and the plaque of the table (global rects).
func _places(table: Table) -> Dictionary:
	var g := {}
	for seat in 4:
		var badge: SeatBadge = table.badges[seat]
		if not badge.is_visible_in_tree():
			continue
		g["seat %d portrait" % seat] = badge.avatar().get_global_rect()
		var chip := badge.find_child("Count", true, false) as Control
		if chip != null and chip.is_visible_in_tree():
			g["seat %d chip" % seat] = chip.get_global_rect()
	g["level plaque"] = (table.plaque as Control).get_global_rect()
	return g


func test_the_deal_end_ceremony_is_on_the_table_at_every_size() -> void:
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		var vp := _viewport(SIZES[0])
		add_child(vp)
		var table: Table = load("res://table/table.tscn").instantiate()
		table.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
			seed = 11, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "competition"})})
		var ended: Array = []
		table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: ended.append(e))
		vp.add_child(table)
		expect(await wait_until(func() -> bool: return not ended.is_empty()), "%s: the first deal ends" % locale)
		if ended.is_empty():
			vp.queue_free()
			continue
		var e: DealEndedEvent = ended[0]
		var modal: Modal = table.modal
		for px in SIZES:
			await _resize(vp, px)
			var where := "%s %dx%d" % [locale, px.x, px.y]
			expect(modal.is_open(), "%s: the next-deal buttons are up" % where)
			expect(not (modal.get_node(^"%Dim") as CanvasItem).visible, "%s: the table is not dimmed" % where)
			var next := modal.button(&"next")
			expect(next != null and next.is_visible_in_tree(), "%s: the next-deal button is shown" % where)
			for i in e.order.size():
				var badge: SeatBadge = table.badges[e.order[i]]
				expect_eq(badge.avatar().place, i + 1, "%s: seat %d wears its medal at its seat" % [where, e.order[i]])
			var levels: Dictionary = table.plaque.shown()
			var after := e.level_changes.after
			expect(String(levels.us).ends_with(Cards.rank_label(after[0])) and String(levels.them).ends_with(Cards.rank_label(after[1])),
				"%s: the plaque shows the new levels %s (%s)" % [where, after, levels])
			var panel := modal.panel.get_global_rect()
			var view: Rect2 = table.get_viewport_rect()
			if not view.grow(1.0).encloses(panel):
				_problems.append("%s: the ceremony's panel %s leaves the window %s" % [where, panel, view])
			var places := _places(table)
			for p: String in places:
				if panel.grow(-1.0).intersects((places[p] as Rect2).grow(-1.0)):
					_problems.append("%s: the next-deal panel %s covers %s %s" % [where, panel, p, places[p]])
		modal.press(&"next")
		vp.queue_free()
		await frames(2)
	expect_eq(_problems, [] as Array[String], "ceremony layout")
