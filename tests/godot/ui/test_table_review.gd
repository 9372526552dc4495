extends GdTestSuite
## The deal review (复盘) from the table after a deal (issue 53): L3 reviews the player's
## decisions of the deal that just ended (that deal only), over the table while the deal-end
## panel waits, inside the window with readable lines at 1280×720, 1024×768 and 2340×1080 in both
## languages; closing it leaves the table as it was; online there is no table review.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var _locale := ""


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	_locale = TranslationServer.get_locale()
	TableReview.worlds = 4


func after_each() -> void:
	TranslationServer.set_locale(_locale)
	TableReview.worlds = 0
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 300.0


## A training table in a window of `at`, the player's seat on auto-play, at the panel of its
## first deal's end.
func _table_at_deal_end(viewport: SubViewport) -> Table:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0,
			turn_timer = 0, save_record = false})})
	viewport.add_child(table)
	await frames(2)
	table.controller.set_auto_play(true)
	var ended: Array[DealEndedEvent] = []
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: ended.append(e))
	expect(await wait_until(func() -> bool: return not ended.is_empty() and table.modal.is_open(), 180.0), "the first deal ends")
	return table


func test_the_table_reviews_the_deal_that_ended_in_both_languages_and_sizes() -> void:
	var viewport := SubViewport.new()
	viewport.size = SIZES[0]
	viewport.disable_3d = true
	add_child(viewport)
	var table := await _table_at_deal_end(viewport)
	var deal: int = table.deal_no
	for locale: String in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		var review := TableReview.open(table, deal)
		if not expect(review != null and review.panel != null, "%s: the review opens on the table" % locale):
			break
		var got: Array[ReviewSummary] = []
		review.panel.review.finished.connect(func(s: ReviewSummary) -> void: got.append(s))
		var failed: Array[String] = []
		review.panel.review.failed.connect(func(m: String) -> void: failed.append(m))
		expect(await wait_until(func() -> bool: return not got.is_empty() or not failed.is_empty(), 150.0), "%s: the review ends" % locale)
		if not expect(got.size() == 1, "%s: reviewed (%s)" % [locale, failed]):
			break
		var s := got[0]
		expect(s.decisions.size() >= 3, "%s: the player's decisions of the deal (%d)" % [locale, s.decisions.size()])
		expect_eq(Array(s.deal_numbers), [deal], "%s: that deal only" % locale)
		for d: ReviewedDecision in s.decisions:
			expect_eq(d.deal_no, deal, "a decision of deal %d" % deal)
		await frames(2)
		expect(review.panel.chart().points() == s.decisions.size(), "%s: a point per decision" % locale)
		for at in SIZES:
			viewport.size = at
			await frames(4)
			var window := Rect2(Vector2.ZERO, Vector2(at))
			var rect := review.panel.get_global_rect()
			expect(window.encloses(rect), "%s %s: the panel %s is inside" % [locale, at, rect])
			expect(rect.size.x >= 360.0 and rect.size.y >= 160.0, "%s %s: the panel is readable (%s)" % [locale, at, rect.size])
			for line in review.panel.lines():
				var per_line := float(line.text.length()) / maxf(line.get_line_count(), 1)
				expect(per_line >= (6.0 if locale == "zh_CN" else 14.0), "%s %s: a readable line (%.1f a line)" % [locale, at, per_line])
		# Closing it leaves the deal-end panel as it was.
		var close: Button = review.panel.find_child("Close", true, false)
		close.pressed.emit()
		await frames(2)
		expect(table.get_node_or_null(^"TableReview") == null and table.frame.find_child("ReviewPanel", true, false) == null,
			"%s: closed" % locale)
		expect(table.modal.is_open(), "%s: the deal-end panel still waits" % locale)
		viewport.size = SIZES[0]
	# A deal the record does not hold is refused with a message, nothing else changes.
	var bad := TableReview.open(table, deal + 5)
	var message: Array[String] = []
	bad.panel.review.failed.connect(func(m: String) -> void: message.append(m))
	expect(await wait_until(func() -> bool: return not message.is_empty(), 20.0), "a missing deal is refused")
	expect(message.size() == 1 and message[0].contains("no deal"), "with a message (%s)" % [message])
	expect(table.modal.is_open(), "the deal-end panel still waits")
	viewport.queue_free()
	await frames(2)


## The review (`review`) ends; its summary, or null on a failure or no answer.
func _summary_of(review: TableReview) -> ReviewSummary:
	var got: Array[ReviewSummary] = []
	var failed: Array[String] = []
	review.panel.review.finished.connect(func(s: ReviewSummary) -> void: got.append(s))
	review.panel.review.failed.connect(func(m: String) -> void: failed.append(m))
	await wait_until(func() -> bool: return not got.is_empty() or not failed.is_empty(), 150.0)
	expect(failed.is_empty(), "no failure (%s)" % [failed])
	return got[0] if got.size() == 1 else null


func test_the_whole_match_is_reviewed_from_the_end_screen_offline_and_online() -> void:
	var viewport := SubViewport.new()
	viewport.size = SIZES[0]
	add_child(viewport)
	var table := await _table_at_deal_end(viewport)
	# Offline: the match so far (here its first deal), from the table's own record.
	TranslationServer.set_locale("en")
	var review := TableReview.open(table, -1)
	var s := await _summary_of(review)
	if expect(s != null, "offline: reviewed"):
		expect_eq(Array(s.deal_numbers), [0], "the match so far")
		var said := review.panel.summary_text()
		expect(said.contains("Replays") and not said.contains("Tap"), "the table's summary offers no tap it cannot answer (%s)" % said)
	# Online: the record the session kept (saved here as one), reviewed once and kept beside it;
	# before it is kept the panel waits for it.
	var name := "test_online_review_%d" % Time.get_ticks_usec()
	expect(RecordLibrary.save(table.controller.engine, name), "saved as if downloaded")
	var records: OnlineRecords = Online.records
	var kept := [records.last_kept, records.last_seat]
	records.last_kept = ""
	table.config.online = true
	review = TableReview.open(table, -1)
	expect(review != null and not review.panel.review.is_running(), "online: the panel waits for the record")
	records.kept.emit(name, table.local_seat)
	s = await _summary_of(review)
	expect(s != null and not s.cached and s.seat == table.local_seat, "online: reviewed once the record is kept")
	records.last_kept = name
	records.last_seat = table.local_seat
	review = TableReview.open(table, -1)
	s = await _summary_of(review)
	expect(s != null and s.cached, "online: the second time the kept review is read back")
	table.config.online = false
	records.last_kept = kept[0]
	records.last_seat = kept[1]
	RecordLibrary.delete_record(name)
	viewport.queue_free()
	await frames(2)


func test_there_is_no_table_review_of_an_online_deal_or_for_a_spectator() -> void:
	var viewport := SubViewport.new()
	viewport.size = SIZES[0]
	add_child(viewport)
	var table := await _table_at_deal_end(viewport)
	table.spectator = true
	expect(TableReview.open(table, 0) == null, "a spectator has no review")
	expect(TableReview.open(table, -1) == null, "nor of the match")
	table.spectator = false
	table.config.online = true
	expect(TableReview.open(table, 0) == null, "an online deal is reviewed with the match, at its end")
	table.config.online = false
	viewport.queue_free()
	await frames(2)


func test_the_deal_end_card_s_review_button_opens_the_review_of_that_deal() -> void:
	var viewport := SubViewport.new()
	viewport.size = SIZES[0]
	add_child(viewport)
	var table := await _table_at_deal_end(viewport)
	var deal: int = table.deal_no
	expect(table.modal.button(&"review") != null, "the card offers Review offline")
	table.modal.press(&"review")
	await frames(2)
	var review: TableReview = table.get_node_or_null(^"TableReview")
	if expect(review != null, "the button opened the review on the table"):
		var s := await _summary_of(review)
		expect(s != null and Array(s.deal_numbers) == [deal], "of the deal that ended (%s)" % [s.deal_numbers if s else null])
		# The panel is drawn above the card and takes the clicks over it.
		expect(review.panel.z_index + review.panel.get_parent().z_index > table.modal.z_index, "above the card")
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 5.0), "the card stands again behind the review")
	expect(table.modal.button(&"review") == null, "without Review the second time")
	viewport.queue_free()
	await frames(2)
