extends EngineTestSuite
## Four AI seats play whole matches through GuandanEngine, driven only by its signals; the
## recorded replay reloads from user://records and reproduces the final state.

const RECORD := "test_engine_ai_match"


func after_each() -> void:
	if RECORD in ReplayRecorder.list_records():
		ReplayRecorder.delete_record(RECORD)


func test_four_l2_seats_play_a_full_match_and_its_replay_reproduces_it() -> void:
	var engine := make_engine()
	var log := watch(engine)
	var over := [false]
	engine.match_ended.connect(func(_w: int, _r: String) -> void: over[0] = true)
	# The getters' typed values agree with the signals as they arrive (the getters may already be
	# an action or more ahead: a play that ended the deal is checked in the next deal's).
	var agree := [0, 0, 0]
	engine.cards_played.connect(func(seat: int, play: Play) -> void:
		if engine.get_history().is_empty() or engine.is_match_over():
			return
		agree[2] += 1
		var table: Turn = engine.get_table()
		if table != null and (table.passed or table.play == null):
			return
		for t: Turn in engine.get_history():
			if t.seat == seat and not t.passed and t.play.text == play.text and t.play.cards == play.cards:
				agree[0] += 1
				return)
	engine.tribute_given.connect(func(from: int, to: int, card: int) -> void:
		for t: Tribute in engine.get_tributes():
			if t.from == from and t.to == to and t.card == card:
				agree[1] += 1)
	var start := Time.get_ticks_usec()
	expect_eq(engine.start_match(load(COMPETITION), [2, 2, 2, 2], 42), GuandanEngine.OK)
	expect_eq(engine.get_local_seat(), -1, "no human seat")
	if not expect(await wait_until(func() -> bool: return over[0], 60.0), "the match ends within 60 s"):
		return
	var seconds := (Time.get_ticks_usec() - start) / 1e6
	print("       full 4-AI L2 match, seed 42: %d deals, %d actions, %.2f s" % [
		engine.get_deal_number() + 1, engine.get_action_count(), seconds])
	expect(seconds < 10.0, "a whole L2 match takes a few seconds, took %.2f s" % seconds)

	# The story the signals tell is complete and in order.
	var seq := names(log)
	expect_eq(seq[0], "match_started")
	expect_eq(seq[1], "deal_started")
	expect_eq(seq[-1], "match_ended")
	expect_eq(of(log, "match_started").size(), 1)
	expect_eq(of(log, "match_ended").size(), 1)
	expect_eq(of(log, "error"), [], "no errors")
	expect_eq(of(log, "hand_changed"), [], "a spectator gets no hand")
	var deals := of(log, "deal_started").size()
	expect_eq(of(log, "deal_ended").size(), deals, "every deal ends")
	expect_eq(deals, engine.get_deal_number() + 1)
	expect_eq(of(log, "ai_thinking").size(), of(log, "ai_decided").size())
	var acted := of(log, "cards_played").size() + of(log, "passed").size()
	expect(acted > 0 and acted <= engine.get_action_count(), "plays and passes are actions")
	for args in of(log, "cards_played"):
		var play: Play = args[1]
		expect(play.kind != "" and play.name_key.begins_with("play.") and play.text != "", "a whole play: %s" % play.text)
		expect_eq(play.cards.size(), play.size)
	expect(agree[2] > of(log, "cards_played").size() - of(log, "deal_ended").size() - 1, "plays checked: %d" % agree[2])
	expect_eq(agree[0], agree[2], "get_history shows each play of the deal as it is announced, the table a play")
	expect_eq(agree[1], of(log, "tribute_given").size(), "get_tributes shows each tribute as it is given")
	expect(agree[1] > 0, "the match had tributes")
	for args in of(log, "tribute_given"):
		expect(args[2] >= 0, "a spectator of an AI match sees tribute cards")
	var ended: Array = of(log, "match_ended")[0]
	expect_eq(ended[0], engine.get_winner_team())
	expect_eq(ended[1], "ace_won")
	expect_eq(engine.get_phase(), GuandanEngine.PHASE_MATCH_OVER)
	var last_levels: LevelChange = of(log, "deal_ended")[-1][1]
	expect_eq(last_levels.winner_team, engine.get_winner_team())
	expect_eq(last_levels.before[engine.get_winner_team()], 14, "the winners were at A")

	# Record, save, load, replay to the end: the same state.
	var recorder := ReplayRecorder.new()
	expect_eq(recorder.record(engine), GuandanEngine.OK)
	expect_eq(recorder.get_final_hash(), engine.get_state_hash())
	expect_eq(recorder.save(RECORD), GuandanEngine.OK)
	var loaded := ReplayRecorder.new()
	expect_eq(loaded.load(RECORD), GuandanEngine.OK)
	expect_eq(loaded.get_action_count(), engine.get_action_count())
	expect_eq(loaded.get_position(), 0)
	expect_eq(loaded.seek(loaded.get_action_count()), GuandanEngine.OK)
	expect_eq(loaded.get_state_hash(), engine.get_state_hash(), "the replay reproduces the final state hash")
	expect_eq(loaded.get_state().winner_team, engine.get_winner_team())


func test_ai_matches_are_deterministic_per_seed() -> void:
	var hashes := []
	for run in 2:
		var engine := make_engine()
		var over := [false]
		engine.match_ended.connect(func(_w: int, _r: String) -> void: over[0] = true)
		engine.start_match(load(HOUSE), [1, 2, 1, 2], 7)
		expect(await wait_until(func() -> bool: return over[0], 60.0), "run %d ends" % run)
		hashes.append(engine.get_state_hash())
		engine.queue_free()
	expect_eq(hashes[0], hashes[1], "same seed, same seats, same rules: same match")
