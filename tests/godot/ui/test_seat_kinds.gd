extends GdTestSuite
## One rule for who is drawn how (SeatKinds, issue 38 item 6): an AI seat is a robot with its
## level, a person a face — at the table, online as a spectator (from the room's seats) and in a
## replay (from the record's players).

var record := ""


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	if record != "":
		RecordLibrary.delete_record(record)
		record = ""
	Settings.reset_for_tests()


## A room as the server describes it: seat 0 the host (a person), seat 1 an AI at level 3, seat
## 2 a second person, seat 3 an AI at level 1.
func _room() -> Dictionary:
	return {code = "K7QX2M", state = "playing", host_seat = 0, seats = [
		{seat = 0, player = "Host", ai = 0, ready = true, connected = true, hosted = false},
		{seat = 1, player = "", ai = 3, ready = true, connected = true, hosted = false},
		{seat = 2, player = "Ann", ai = 0, ready = true, connected = true, hosted = true},
		{seat = 3, player = "", ai = 1, ready = true, connected = true, hosted = false}]}


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
	var table: Control = load("res://table/table.tscn").instantiate()
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


## A local match (seat 0 the player, AIs elsewhere) replayed: robots for the AI seats, a face
## for the player — as the table drew them.
func test_a_replay_draws_the_ai_seats_as_robots() -> void:
	var controller := MatchController.new()
	add_child(controller)
	controller.start(MatchConfig.with({ai_levels = [1, 3, 1], seed = 21, ai_min_think_ms = 0, turn_timer = 0}))
	controller.set_auto_play(true)  # the AI plays for the player; the record still names a person
	await wait_until(func() -> bool: return controller.action_count() >= 12)
	record = controller.record.save()
	controller.queue_free()
	if not expect(record != "", "the match was saved"):
		return
	var player: Control = load("res://replay/replay_player.tscn").instantiate()
	player.open({record = record})
	add_child(player)
	await frames(2)
	var badges: Array[SeatBadge] = player.badges
	expect(not badges[0].avatar().ai, "the player is drawn as a person")
	for seat in [1, 2, 3]:
		expect(badges[seat].avatar().ai, "AI seat %d is drawn as a robot" % seat)
	expect_eq(badges[2].ai_level, 3, "at its level")
	player.queue_free()
	await frames(1)
