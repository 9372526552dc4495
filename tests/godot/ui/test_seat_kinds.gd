extends GdTestSuite
## One rule for who is drawn how (SeatKinds, issue 38 item 6): an AI seat is a robot with its
## level, a person a face — at the table, online as a spectator (from the room's seats) and in a
## replay (from the record's players: test_replay_screen.gd).


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


## A room as the server describes it: seat 0 the host (a person), seat 1 an AI at level 3, seat
## 2 a second person, seat 3 an AI at level 1.
func _room() -> OnlineRoom:
	return OnlineRoom.parse(JSON.stringify({code = "K7QX2M", state = "playing", host_seat = 0, rules = "competition",
		spectator_delay = 3, spectators = 0, locked = false, matches = 0, seats = [
		{seat = 0, player = "Host", ai = 0, ready = true, connected = true, hosted = false},
		{seat = 1, player = "", ai = 3, ready = true, connected = true, hosted = false},
		{seat = 2, player = "Ann", ai = 0, ready = true, connected = true, hosted = true},
		{seat = 3, player = "", ai = 1, ready = true, connected = true, hosted = false}]}))


func _badges() -> Array[SeatBadge]:
	var out: Array[SeatBadge] = []
	for seat in 4:
		var b := SeatBadge.create(seat)
		add_child(b)
		out.append(b)
	return out


func test_the_rule_for_a_room_watched_and_played() -> void:
	expect_eq(SeatKinds.from_room(_room()), PackedInt32Array([0, 3, 0, 1]), "people 0, AIs at their levels")
	await frames(1)
	var badges := _badges()
	# A spectator: seat 0 at the bottom. The host is a face, not "Normal" AI; seat 1 a robot.
	SeatKinds.show(badges, SeatKinds.from_room(_room()))
	expect(not badges[0].avatar().ai, "the human host is drawn as a person")
	expect(not (tr("AI_NORMAL") in (badges[0].get_node("%Sub") as Label).text), "with no AI level")
	expect(badges[1].avatar().ai and badges[1].ai_level == 3, "the AI seat is a robot at its level")
	expect(not badges[2].avatar().ai, "a person hosted by the server's AI is still a person")
	# The player at seat 2 sees the room turned: seat 2 at the bottom, seat 3 on the right.
	SeatKinds.show(badges, SeatKinds.from_room(_room()), 2)
	expect_eq([badges[0].ai_level, badges[1].ai_level, badges[2].ai_level, badges[3].ai_level], [0, 1, 0, 3],
		"turned so the viewer's seat is at the bottom")
	for b in badges:
		b.queue_free()


## The table as an online spectator sees it: the room's seats are shown first, then the match
## is announced with no seat of the viewer's (local seat -1): the host stays a person.
func test_a_spectator_table_keeps_the_room_s_people() -> void:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({seed = 3, save_record = false, turn_timer = 0})})
	add_child(table)
	await frames(2)
	SeatKinds.show(table.badges, SeatKinds.from_room(_room()))
	var e := MatchStartedEvent.new()
	e.local_seat = -1
	table.events.dealing.on_match_started(e)
	expect(not table.badges[0].avatar().ai, "the host at the bottom is drawn as a person")
	expect_eq(table.badges[0].ai_level, 0, "with no AI level")
	expect(table.badges[1].avatar().ai, "the AI seat is a robot")
	table.queue_free()
	await frames(1)


## Online every seat shows one name, under its portrait (issue 54: the online table's name labels
## stood over the badges, the player's own nickname over "You"): a person's nickname as the
## badge's title (an away person marked), an AI seat its place at the table, the player's own
## seat its nickname (the name we play under until the room says it); turned for the viewer.
func test_online_names_one_a_seat_under_the_portrait() -> void:
	var seats := [
		{seat = 0, player = "Host", ai = 0, ready = true, connected = true, hosted = false},
		{seat = 1, player = "", ai = 3, ready = true, connected = true, hosted = false},
		{seat = 2, player = "Ann", ai = 0, ready = true, connected = false, hosted = true},
		{seat = 3, player = "", ai = 1, ready = true, connected = true, hosted = false}]
	var room := func(s: Array) -> OnlineRoom:
		return OnlineRoom.parse(JSON.stringify({code = "K7QX2M", state = "playing", host_seat = 0, rules = "competition",
			spectator_delay = 3, spectators = 0, locked = false, matches = 0, seats = s}))
	var names := SeatKinds.names_from_room(room.call(seats), 0, "Me", "(away)")
	expect_eq(names, PackedStringArray(["Host", "", "Ann  (away)", ""]), "nicknames by seat, AI seats none")
	var catching_up := seats.duplicate(true)
	catching_up[0].player = ""
	expect_eq(SeatKinds.names_from_room(room.call(catching_up), 0, "Me", "(away)")[0], "Me",
		"the player's own seat while the room catches up")
	expect_eq(SeatKinds.names_from_room(room.call(catching_up), -1, "Me", "(away)")[0], "", "a watcher has no seat of its own")
	await frames(1)
	var badges := _badges()
	for b in badges:
		b.stacked = true
	await frames(2)
	# The player sits at seat 2: seat 2 is drawn at the bottom, seat 0 (the host) at the top.
	var font := SystemFont.new()
	SeatKinds.show_names(badges, names, 2, font)
	SeatKinds.show(badges, SeatKinds.from_room(_room()), 2)
	await frames(2)
	var shown: Array[String] = []
	for b in badges:
		shown.append((b.get_node(^"%SeatName") as Label).text)
	expect_eq(shown, ["Ann  (away)", Wording.seat_name(1, 0), "Host", Wording.seat_name(3, 0)],
		"each badge's one name: nicknames, the AI seats' places")
	expect_eq((badges[2].get_node(^"%SeatName") as Label).get_theme_font(&"font"), font, "a nickname in the names' font")
	for b in badges:
		var face := b.avatar().get_global_rect()
		var name_ink: Rect2 = preload("res://tests_godot/ui/layout_probe.gd").ink(b.get_node(^"%SeatName") as Label)
		expect(name_ink.position.y >= face.end.y - 1.0, "seat %d's name %s under its portrait %s" % [b.seat, name_ink, face])
	# Back to no nickname (the seat was left): the seat's place again, in the scene's font.
	SeatKinds.show_names(badges, PackedStringArray(["", "", "", ""]), 2)
	expect_eq((badges[2].get_node(^"%SeatName") as Label).text, Wording.seat_name(2, 0), "no nickname: the place")
	expect(not (badges[2].get_node(^"%SeatName") as Label).has_theme_font_override(&"font"), "and the scene's font")
	for b in badges:
		b.queue_free()
