extends GdTestSuite
## DealReviewer: L3's review (复盘) of a record made on a worker thread — progress signals, then
## one `finished` with a typed ReviewSummary whose decisions are typed ReviewedDecision objects;
## a tampered record, a bad seat or a bad budget give `failed` with a message.


func _corpus(file: String) -> String:
	var dir := ProjectSettings.globalize_path("res://").path_join("../tests/replay-corpus").simplify_path()
	return FileAccess.get_file_as_string(dir.path_join(file))


## Starts a review on a fresh node and waits for its end: [node, progress list, summary or null, failure].
func _review(text: String, seat: int, worlds: int) -> Array:
	var reviewer := DealReviewer.new()
	add_child(reviewer)
	var seen := {progress = [], summary = null, failure = ""}
	reviewer.progress.connect(func(done: int, total: int) -> void: seen.progress.append(Vector2i(done, total)))
	reviewer.finished.connect(func(s: ReviewSummary) -> void: seen.summary = s)
	reviewer.failed.connect(func(m: String) -> void: seen.failure = m)
	reviewer.start(text, seat, worlds, 7)
	await wait_until(func() -> bool: return not reviewer.is_running(), 120.0)
	reviewer.queue_free()
	return [seen.progress, seen.summary, seen.failure]


func test_a_record_is_reviewed_on_a_worker_with_progress_and_typed_results() -> void:
	var text := _corpus("good_unfinished_match.jsonl")
	expect(text.length() > 100, "the corpus record is there")
	var got: Array = await _review(text, 1, 2)
	var progress: Array = got[0]
	var summary: ReviewSummary = got[1]
	expect_eq(got[2], "", "no failure")
	if not expect(summary != null, "finished with a summary"):
		return
	expect(progress.size() > 5, "progress was reported (%d)" % progress.size())
	expect_eq(progress[-1].x, progress[-1].y, "the last progress is the whole")
	expect_eq(summary.seat, 1)
	expect_eq(summary.worlds, 2)
	expect(summary.decisions.size() > 5, "decisions valued (%d)" % summary.decisions.size())
	var marked := 0
	for d: ReviewedDecision in summary.decisions:
		expect(d.cost >= 0.0 and d.mark >= 0 and d.mark <= 2, "cost %f mark %d" % [d.cost, d.mark])
		expect(d.reason.begins_with("reason."), d.reason)
		expect(d.best_kind == "pass" or not d.best.is_empty(), "the best play has its cards")
		marked += int(d.mark > 0)
	expect_eq(marked, summary.inaccuracies + summary.mistakes, "the marks add up")
	expect_eq(summary.deal_numbers.size(), summary.deal_mistakes.size())


func test_a_tampered_record_or_a_bad_request_fails_with_a_message() -> void:
	var text := _corpus("good_unfinished_match.jsonl")
	# The header's seed changed: the recorded actions no longer fit the deal.
	var header_end := text.find("\n")
	var tampered := text.substr(0, header_end).replace("\"seed\":", "\"seed\":1") + text.substr(header_end)
	for bad: Array in [[tampered, 0, 2], [text, 5, 2], [text, 0, 0], ["garbage", 0, 2]]:
		var got: Array = await _review(bad[0], bad[1], bad[2])
		expect(got[1] == null, "no summary")
		expect(String(got[2]) != "", "failed with a message (%s)" % [bad.slice(1)])


## cancel() stops the worker itself (it checks between decisions), not only its answer: the
## worker ends having valued at most one decision more than had been reported, not the whole
## record (before, it ran the review to its end unseen).
func test_cancel_stops_the_worker() -> void:
	var reviewer := DealReviewer.new()
	add_child(reviewer)
	var seen := {progress = 0, total = 0, finished = false}
	reviewer.progress.connect(func(d: int, t: int) -> void:
		seen.progress = d
		seen.total = t)
	reviewer.finished.connect(func(_s: ReviewSummary) -> void: seen.finished = true)
	expect(reviewer.start(_corpus("good_unfinished_match.jsonl"), 1, 8, 7), "started")
	expect(await wait_until(func() -> bool: return seen.progress >= 1, 120.0), "a first decision valued")
	reviewer.cancel()
	var at_cancel: int = seen.progress
	expect(not reviewer.is_running(), "nothing more is awaited")
	expect(await wait_until(func() -> bool: return not reviewer.is_worker_alive(), 300.0), "the worker ended")
	var valued := reviewer.decisions_valued()
	expect(valued <= at_cancel + 1 and valued < seen.total,
		"the worker stopped at the next decision: %d valued, %d at the cancel, %d in all" % [valued, at_cancel, seen.total])
	await frames(3)
	expect_eq(seen.progress, at_cancel, "no progress after the cancel")
	expect(not seen.finished, "no answer after the cancel")
	reviewer.queue_free()


func test_a_reviewer_that_leaves_the_tree_stops_its_worker() -> void:
	var reviewer := DealReviewer.new()
	add_child(reviewer)
	var seen := [0]
	reviewer.progress.connect(func(d: int, _t: int) -> void: seen[0] = d)
	expect(reviewer.start(_corpus("good_unfinished_match.jsonl"), 1, 8, 7), "started")
	expect(await wait_until(func() -> bool: return seen[0] >= 1, 120.0), "a first decision valued")
	# The panel closed: its reviewer leaves the tree.
	remove_child(reviewer)
	expect(not reviewer.is_running(), "nothing more is awaited")
	expect(await wait_until(func() -> bool: return not reviewer.is_worker_alive(), 300.0), "the worker ended")
	expect(reviewer.decisions_valued() <= seen[0] + 1, "at the next decision (%d valued, %d seen)" % [reviewer.decisions_valued(), seen[0]])
	reviewer.free()
