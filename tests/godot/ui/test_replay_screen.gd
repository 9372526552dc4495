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
		MatchController.delete_record(record)
	Settings.reset_for_tests()


## Plays AI actions until `actions` are recorded, saves the record and returns its name.
func _record_match(actions: int) -> String:
	var controller := MatchController.new()
	add_child(controller)
	controller.start(MatchConfig.with({all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1, seed = 21, ai_min_think_ms = 0,
		turn_timer = 0}))
	await wait_until(func() -> bool: return controller.action_count() >= actions)
	var name := controller.save_record()
	controller.queue_free()
	return name


func test_replay_list_and_player() -> void:
	record = await _record_match(120)
	if not expect(record != "", "the match was saved"):
		return
	var list: Control = load("res://replay/replay_list.tscn").instantiate()
	add_child(list)
	expect(list.find_child(record, true, false) != null, "the list shows the record")
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
	var st: Dictionary = player.controller.record_state()
	var in_hands := 0
	for c in PackedInt32Array(st.card_counts):
		in_hands += c
	var in_centre := 0
	for seat in 4:
		in_centre += player.zone.shown(seat).size()
	expect(in_centre > 0 or player.zone.group_count() > 0, "the round is shown in the centre")
	expect_eq(shown, in_hands + in_centre, "every hand open plus the centre")
	expect(player.zone.group_count() <= 4, "at most four groups in the centre")
	player.step_back()
	expect_eq(player.current_position(), 39)
	player.seek(total)
	expect_eq(player.current_position(), total)
	player.seek(0)
	player.seek(25)
	expect_eq(player.current_position(), 25)
	expect(player.history.lines().size() >= 1, "history rebuilt at a position")
	var created: int = player.layer.created_count
	for n in [5, 60, 17, 90]:
		player.seek(n)
	expect_eq(player.layer.created_count, created, "seeking reuses card nodes")
	# The AI's view of a decision in the play phase.
	var view: Dictionary = {}
	for n in range(30, 60):
		player.seek(n)
		view = player.ai_view()
		if not (view.get("hints", []) as Array).is_empty():
			break
	expect(not (view.get("hints", []) as Array).is_empty(), "the AI's view lists candidates")
	player.show_ai_view()
	expect(player.modal.is_open(), "AI view panel opens")
	player.modal.press(&"close")
	player.playing = true
	var at: int = player.current_position()
	expect(await wait_until(func() -> bool: return player.current_position() > at, 5.0), "playback advances")
	player.playing = false


func _cards_shown(player: Control) -> int:
	return player.layer.in_use_count()
