extends GdTestSuite
## A resumable match is never dropped without asking (issue 24, item 6): the guided first deal
## (not saved) leaves the saved unfinished match alone, another match ending does too, and a new
## match that would take its place under Continue asks first — continue it, start new, or stay.

var app: Control
var _records_before := PackedStringArray()


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	RecordLibrary.forget_continue()
	_records_before = RecordLibrary.list_records()


func after_each() -> void:
	if app != null and is_instance_valid(app):
		app.queue_free()
	app = null
	RecordLibrary.forget_continue()
	for name in RecordLibrary.list_records():
		if not (name in _records_before):
			RecordLibrary.delete_record(name)
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 120.0


## Leaves a training at the player's first turn: its record and the Continue entry are saved.
## Returns the record's name.
func _save_unfinished() -> String:
	var t: Table = load("res://table/table.tscn").instantiate()
	t.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0,
		turn_timer = 0})})
	add_child(t)
	expect(await wait_until(func() -> bool: return t.is_idle() and t.duty == &"play"), "my turn")
	var plays: Array = t.controller.advice.legal_plays()
	expect_eq(t.controller.play(PackedInt32Array(plays[0].cards)), 0, "I lead")
	expect(await wait_until(func() -> bool: return t.is_idle() and t.duty == &"play"), "my turn again")
	t.save_for_continue()
	t.queue_free()
	await frames(2)
	var c := RecordLibrary.continue_config()
	expect(c != null, "the unfinished training is saved for Continue")
	return c.resume_record if c != null else ""


func _open_app() -> void:
	app = load("res://ui/app.tscn").instantiate()
	add_child(app)
	expect(await wait_until(func() -> bool: return app.current_name == &"menu" and app.current.is_node_ready()), "the menu")


func _saved() -> String:
	var c := RecordLibrary.continue_config()
	return c.resume_record if c != null else ""


func test_the_guided_deal_keeps_the_saved_match() -> void:
	var saved := await _save_unfinished()
	await _open_app()
	EventBus.match_requested.emit(GuidedDeal.config())  # what the Rules page's button does
	expect(app.unfinished_prompt == null or not app.unfinished_prompt.is_open(), "the guided deal replaces nothing: no question")
	expect(await wait_until(func() -> bool: return app.current_name == &"table" and app.current.is_idle()), "the guided deal runs")
	expect(app.current.config.guided, "it is the guided deal")
	app.current.leave()
	expect(await wait_until(func() -> bool: return app.current_name == &"menu"), "back in the menu")
	expect_eq(_saved(), saved, "the saved training is still the one to continue")
	await frames(2)
	expect((app.current.get_node("%Continue") as Button).visible, "and the menu offers Continue")
	app.queue_free()
	app = null
	await frames(3)


func test_another_match_ending_keeps_the_saved_match() -> void:
	var saved := await _save_unfinished()
	var t: Table = load("res://table/table.tscn").instantiate()
	t.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 9, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false})})
	add_child(t)
	expect(await wait_until(func() -> bool: return t.is_idle() and t.duty == &"play"), "my turn")
	expect_eq(t.controller.propose_surrender(), 0, "surrender (the AI seats accept: the match ends)")
	expect(await wait_until(func() -> bool: return t.match_over), "that match is over")
	expect_eq(_saved(), saved, "the saved training is still the one to continue")
	t.queue_free()


func test_a_new_match_asks_before_taking_the_saved_ones_place() -> void:
	var saved := await _save_unfinished()
	await _open_app()
	var training: Button = app.current.get_node("%Training")
	# Stay: nothing changes.
	training.pressed.emit()
	expect(app.unfinished_prompt != null and app.unfinished_prompt.is_open(), "a new training asks first")
	expect(app.unfinished_prompt.button(&"continue") != null and app.unfinished_prompt.button(&"new") != null)
	app.unfinished_prompt.press(&"cancel")
	await frames(3)
	expect_eq(app.current_name, &"menu", "cancel stays in the menu")
	expect_eq(_saved(), saved, "and keeps the saved training")
	# Continue it: the saved match resumes.
	training.pressed.emit()
	app.unfinished_prompt.press(&"continue")
	expect(await wait_until(func() -> bool: return app.current_name == &"table" and app.current.is_idle()), "the table")
	expect_eq(app.current.controller.record.name, saved, "the saved training was resumed")
	app.current.leave()
	expect(await wait_until(func() -> bool: return app.current_name == &"menu" and app.current.is_node_ready()), "the menu")
	expect_eq(_saved(), saved, "still the one to continue")
	# Start new: the saved match leaves Continue (its record stays in Replays).
	(app.current.get_node("%Play") as Button).pressed.emit()
	expect(app.unfinished_prompt.is_open(), "a new match asks too")
	app.unfinished_prompt.press(&"new")
	expect(await wait_until(func() -> bool: return app.current_name == &"table"), "a new match")
	expect(app.current.config.resume_record == "" and app.current.config.mode == &"match", "a new one, not the saved one")
	expect_eq(_saved(), "", "the saved training left Continue, as the player chose")
	expect(saved in RecordLibrary.list_records(), "its record stays in Replays")
	app.queue_free()
	app = null
	await frames(3)


func test_play_again_after_a_continued_match_is_a_new_match() -> void:
	var c := MatchConfig.with({mode = &"training", seed = 4, resume_record = "match_x"})
	var again := c.again()
	expect_eq(again.resume_record, "", "not the finished record again")
	expect(not again.has_seed, "a fresh seed")
