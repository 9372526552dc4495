extends GdTestSuite
## The replay screens on a match recorded here: the list shows it, the player steps forward and
## back, seeks, shows every hand and the round in the centre, and gives the AI's view of a
## decision. The record is deleted afterwards.

var record := ""


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	if record != "":
		RecordLibrary.delete_record(record)
	Settings.reset_for_tests()


## Plays AI actions until `actions` are recorded, saves the record and returns its name. Four
## AIs, or with `config` a match whose player the AI plays for (auto-play).
func _record_match(actions: int, config: MatchConfig = null) -> String:
	var controller := MatchController.new()
	add_child(controller)
	controller.start(config if config != null else MatchConfig.with({all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 21, ai_min_think_ms = 0, turn_timer = 0}))
	if config != null:
		controller.set_auto_play(true)
	await wait_until(func() -> bool: return controller.action_count() >= actions)
	var name := controller.record.save()
	controller.queue_free()
	return name


func test_replay_list_and_player() -> void:
	record = await _record_match(120)
	if not expect(record != "", "the match was saved"):
		return
	var list: Control = load("res://replay/replay_list.tscn").instantiate()
	add_child(list)
	var row: Control = list.find_child(record, true, false)
	expect(row != null, "the list shows the record")
	if row != null:
		var text: String = (row.find_child("Summary", true, false) as Label).text
		# A card: the result on its badge and the four players' portraits.
		expect_eq((row.find_child("Result", true, false) as Label).text, "STATS_UNFINISHED", "the result badge")
		expect_eq(row.find_child("Portraits", true, false).get_child_count(), 4, "four portraits")
		expect(tr("STATS_DEALS_FMT").format({n = 1}).split(" ")[-1] in text or "deal" in text, "with its deals: %s" % text)
		expect(tr("STATS_UNFINISHED") in text, "and its result (unfinished): %s" % text)
		expect(" · " in text and text.split(" · ").size() >= 4, "mode · result · deals · levels under the when: %s" % text)
		# Delete asks first; Cancel keeps the record.
		(row.find_child("Delete", true, false) as Button).pressed.emit()
		var modal: Modal = list.find_child("Modal", false, false)
		expect(modal != null and modal.is_open(), "deleting asks for confirmation")
		if modal != null:
			modal.press(&"no")
		await frames(1)
		expect(record in RecordLibrary.list_records(), "cancelled: the record stays")
	list.queue_free()

	var player: Control = load("res://replay/replay_player.tscn").instantiate()
	player.open({record = record})
	add_child(player)
	await frames(2)
	var total: int = player.controller.record_length()
	expect(total >= 120, "record has the actions (%d)" % total)
	expect_eq(player.current_position(), 0)
	expect_eq(_cards_shown(player), 108, "every card is shown at the start")
	for i in 40:
		player.step_forward()
	expect_eq(player.current_position(), 40)
	var shown := _cards_shown(player)
	var st: MatchState = player.controller.record_state()
	var in_hands := 0
	for c in st.card_counts:
		in_hands += c
	var in_centre := 0
	for seat in 4:
		in_centre += player.zone.shown(seat).size()
	expect(in_centre > 0 or player.zone.group_count() > 0, "the round is shown in the centre")
	expect_eq(shown, in_hands + in_centre, "every hand open plus the centre")
	expect(player.zone.group_count() <= 4, "at most four groups in the centre")
	_check_hands(player, "after 40 steps")
	player.step_back()
	expect_eq(player.current_position(), 39)
	player.seek(total)
	expect_eq(player.current_position(), total)
	player.seek(0)
	player.seek(25)
	expect_eq(player.current_position(), 25)
	expect(player.history.lines().size() >= 1, "history rebuilt at a position")
	for n in [90, 12, 64]:
		player.seek(n)
		_check_hands(player, "after seeking to %d" % n)
	var created: int = player.layer.created_count
	for n in [5, 60, 17, 90]:
		player.seek(n)
	expect_eq(player.layer.created_count, created, "seeking reuses card nodes")
	# The AI's view of a decision in the play phase.
	var view: ReplayAiView = null
	for n in range(30, 60):
		player.seek(n)
		view = player.ai_view()
		if view != null and not view.hints.is_empty():
			break
	expect(view != null and not view.hints.is_empty(), "the AI's view lists candidates")
	player.show_ai_view()
	expect(player.modal.is_open(), "AI view panel opens")
	player.modal.press(&"close")
	player.playing = true
	var at: int = player.current_position()
	expect(await wait_until(func() -> bool: return player.current_position() > at, 5.0), "playback advances")
	player.playing = false


## Every open hand in rank order with one card size, opponents' cards large enough to read,
## and no hand running into another hand, a badge or a play.
func _check_hands(player: Control, when: String) -> void:
	var rects := {}
	for seat in 4:
		var oh: OpenHand = player.open_hands[seat]
		var sizes := {}
		var box := Rect2()
		var rows := {}
		for id in oh.cards():
			var v: CardView = player.layer.find_view(id)
			if v == null:
				continue
			sizes[v.size.round()] = true
			rows[roundi(v.global_position.y)] = v.size.y
			var r := Rect2(v.global_position, v.size)
			box = r if box.size == Vector2.ZERO else box.merge(r)
		expect(sizes.size() <= 1, "%s: seat %d's hand has one card size (%s)" % [when, seat, sizes.keys()])
		expect_eq(oh.cards(), Cards.sorted(oh.cards(), oh.level), "%s: seat %d's hand in rank order" % [when, seat])
		if seat != 0 and not sizes.is_empty():
			expect((sizes.keys()[0] as Vector2).y >= 56.0, "%s: seat %d's cards are large enough" % [when, seat])
		# Whole rows: a second row never covers the first (issue 24: half of it was hidden).
		var ys := rows.keys()
		ys.sort()
		for i in range(1, ys.size()):
			expect(ys[i] - ys[i - 1] >= rows[ys[i - 1]] - 1.0, "%s: seat %d's rows do not cover each other (%s)" % [when, seat, ys])
		if box.size != Vector2.ZERO:
			rects["hand %d" % seat] = box.grow(-1.0)
		rects["badge %d" % seat] = (player.badges[seat] as Control).get_global_rect().grow(-1.0)
		var play: Rect2 = player.zone.group_rect(seat)
		if play.size != Vector2.ZERO:
			rects["play %d" % seat] = play.grow(-1.0)
	var names := rects.keys()
	for i in names.size():
		for j in range(i + 1, names.size()):
			expect(not (rects[names[i]] as Rect2).intersects(rects[names[j]]),
				"%s: %s overlaps %s" % [when, names[i], names[j]])


func _cards_shown(player: Control) -> int:
	return player.layer.in_use_count()


## Issue 38 item 6 (SeatKinds): a local match (seat 0 the player, AIs elsewhere) replayed:
## robots for the AI seats, a face for the player — as the table drew them.
func test_a_replay_draws_the_ai_seats_as_robots() -> void:
	# The AI plays for the player; the record still names a person.
	record = await _record_match(12, MatchConfig.with({ai_levels = [1, 3, 1], seed = 21, ai_min_think_ms = 0, turn_timer = 0}))
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
