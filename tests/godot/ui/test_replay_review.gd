extends GdTestSuite
## The deal review (复盘) from Replays: the player's seat of a recorded match is reviewed on a
## worker thread (progress bar, then summary, chart and marked decisions with the better play and
## its reason); tapping a chart point or a line seeks the replay to that decision; the panel is
## inside the window with readable lines at 1280×720, 1024×768 and 2340×1080 in both languages.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var record := ""
var _locale := ""


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	_locale = TranslationServer.get_locale()


func after_each() -> void:
	TranslationServer.set_locale(_locale)
	if record != "":
		RecordLibrary.delete_record(record)
		expect(not FileAccess.file_exists("user://records/%s.jsonl.review.json" % record), "its review goes with it")
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 240.0


## A training match the AI plays for the player (auto-play, L1 elsewhere), saved with the
## player's seat as a human seat.
func _record_match(actions: int) -> String:
	var controller := MatchController.new()
	add_child(controller)
	controller.start(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 21, ai_min_think_ms = 0,
		turn_timer = 0}))
	controller.set_auto_play(true)
	await wait_until(func() -> bool: return controller.action_count() >= actions)
	var name := controller.record.save()
	controller.queue_free()
	return name


func test_the_review_opens_from_replays_and_jumps_to_a_decision_in_both_languages_and_sizes() -> void:
	record = await _record_match(160)
	if not expect(record != "", "the match was saved"):
		return
	for locale: String in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		var viewport := SubViewport.new()
		viewport.size = SIZES[0]
		viewport.disable_3d = true
		add_child(viewport)
		var player: Control = load("res://replay/replay_player.tscn").instantiate()
		player.open({record = record})
		player.review_worlds = 4
		viewport.add_child(player)
		await frames(3)
		var button: Button = player.find_child("ReviewButton", true, false)
		expect(button != null and button.is_visible_in_tree(), "%s: the replay offers the review" % locale)
		button.pressed.emit()
		var panel: ReviewPanel = player.review_panel
		if not expect(panel != null, "the review panel opened"):
			return
		var progressed := [0]
		var got: Array[ReviewSummary] = []
		panel.review.progress.connect(func(_d: int, _t: int) -> void: progressed[0] += 1)
		panel.review.finished.connect(func(s: ReviewSummary) -> void: got.append(s))
		expect(await wait_until(func() -> bool: return not panel.review.is_running(), 120.0), "%s: the review ends" % locale)
		await frames(2)
		if not expect(got.size() == 1, "%s: one review" % locale):
			return
		if locale == "en":
			expect(progressed[0] > 3 and not got[0].cached, "made the first time: progress reported (%d)" % progressed[0])
			expect(FileAccess.file_exists("user://records/%s.jsonl.review.json" % record), "kept beside the record")
		else:
			# The second opening reads back the review kept beside the record: no decision valued again.
			expect(got[0].cached and progressed[0] == 0, "read back the second time (%d progress)" % progressed[0])
		var chart := panel.chart()
		expect(chart.points() > 5, "%s: a point per decision (%d)" % [locale, chart.points()])
		for at in SIZES:
			viewport.size = at
			await frames(4)
			var window := Rect2(Vector2.ZERO, Vector2(at))
			var parts := []
			for c: Control in panel.get_child(0).get_children():
				parts.append("%s %s" % [c.get_class(), c.get_combined_minimum_size()])
			expect(window.encloses(panel.get_global_rect()), "%s %s: the panel %s is inside (%s)" % [locale, at, panel.get_global_rect(), parts])
			# The seats start under the top bar (at 2340×1080 in a window, North's sat on Back).
			var bar: Control = player.find_child("TopBar", true, false)
			for b: Control in player.badges:
				expect(not b.get_global_rect().grow(-1.0).intersects(bar.get_global_rect()), "%s %s: %s under the top bar" % [locale, at, b.name])
			for line in panel.lines():
				var per_line := float(line.text.length()) / maxf(line.get_line_count(), 1)
				expect(per_line >= (6.0 if locale == "zh_CN" else 14.0), "%s %s: a readable line (%.1f a line)" % [locale, at, per_line])
		# A tap on the chart's last point seeks the replay there.
		var last := chart.points() - 1
		var click := InputEventMouseButton.new()
		click.button_index = MOUSE_BUTTON_LEFT
		click.pressed = true
		click.position = chart.point(last)
		var before: int = player.current_position()
		chart._gui_input(click)
		await frames(2)
		expect(player.current_position() != before or before > 0, "%s: the tap moved the replay" % locale)
		expect(player.current_position() > 0, "at a decision of the deal")
		viewport.queue_free()
		await frames(2)


## A decision marked for what its play keeps, with no level lost, says so rather than "(-0.0)"
## (seen online beside "the biggest"); a level cost shows as before.
func test_a_mark_without_a_level_lost_says_what_it_is_about() -> void:
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		expect_eq(ReviewPanel.cost_text(0.8), "-0.8", locale)
		expect_eq(ReviewPanel.cost_text(0.05), "-0.1", locale)
		for small in [0.0, 0.02, 0.049]:
			var text := ReviewPanel.cost_text(small)
			expect(not text.contains("0.0") and text == TranslationServer.translate("REVIEW_KEEP_COST"), "%s %f: %s" % [locale, small, text])
		expect_ne(TranslationServer.translate("REVIEW_KEEP_COST"), "REVIEW_KEEP_COST", locale)
