extends EngineTestSuite
## What players expect from an app (issue 12), at the engine: auto-play (托管) takes the
## player's seat over and gives it back, the card counter (记牌器) equals a brute-force count from
## the player's own view at every step, players are named in the record, and the statistics file
## is built from saved records (a damaged one reported, never a crash).

const RANK_COUNT := 15


## Brute force from what the viewer can read: two decks minus the hand minus this deal's plays,
## counted card by card (index rank-2; 13 small joker, 14 big joker).
static func brute_force(hand: PackedInt32Array, played: PackedInt32Array) -> PackedInt32Array:
	var out := PackedInt32Array()
	out.resize(RANK_COUNT)
	for id in 108:
		if id in hand or id in played:
			continue
		var value := id % 54
		var index := 13 if value == 52 else (14 if value == 53 else value % 13)
		out[index] += 1
	return out


func test_auto_play_takes_over_and_gives_back() -> void:
	var engine := make_engine()
	var log := watch(engine)
	expect_eq(engine.start_match(null, [null, 1, 1, 1], 21), GuandanEngine.OK)
	expect(await wait_until(engine.is_local_turn), "the player gets a duty")
	expect(not engine.is_auto_play())
	var before := engine.get_action_count()
	var hand_before := engine.get_hand().size()
	expect_eq(engine.set_auto_play(true), GuandanEngine.OK, "hand the seat to the AI")
	expect(engine.is_auto_play(), "auto-play is on")
	expect_eq(of(log, "controller_changed"), [[0, true]], "controller_changed(0, true)")
	expect_eq(engine.get_local_seat(), 0, "the viewer stays the player")
	# The AI acts for seat 0: the match moves on through the player's own turns.
	var own_plays := func() -> int:
		return of(log, "cards_played").filter(func(a: Array) -> bool: return a[0] == 0).size() \
			+ of(log, "passed").filter(func(a: Array) -> bool: return a[0] == 0).size()
	expect(await wait_until(func() -> bool: return own_plays.call() >= 3 or engine.is_match_over()),
		"the AI played the player's seat")
	expect(engine.get_action_count() > before + 8, "the match went on without the player")
	expect(engine.get_hand().size() < hand_before or engine.get_deal_number() > 0, "the player's cards were played")
	expect(engine.get_seat_hand(1).is_empty(), "still no other hand visible")
	expect_logged("get_seat_hand")
	for args: Array in of(log, "hand_changed"):
		# 27 dealt, 28 while holding a tribute not yet returned.
		expect_eq(PackedInt32Array(args[0]).size() <= 28, true)
	expect(of(log, "viewer_changed").is_empty(), "no viewer change")
	# Take it back: the AI stops at the player's next duty, which is announced.
	log.clear()
	expect_eq(engine.set_auto_play(false), GuandanEngine.OK, "take the seat back")
	expect(not engine.is_auto_play())
	expect_eq(of(log, "controller_changed"), [[0, false]], "controller_changed(0, false)")
	expect(await wait_until(func() -> bool: return engine.is_local_turn() or engine.is_match_over()), "a duty comes back")
	if engine.is_match_over():
		return
	var duty_signals := names(log).filter(func(n: String) -> bool: return n in ["turn_started", "tribute_phase", "return_phase"])
	expect(not duty_signals.is_empty(), "the player's duty is announced")
	var waiting := engine.get_action_count()
	await frames(20)
	expect_eq(engine.get_action_count(), waiting, "the engine waits for the player")
	# Bad calls keep the state.
	engine.auto_play_level = 7
	expect_eq(engine.set_auto_play(true), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	expect(not engine.is_auto_play())
	engine.auto_play_level = 2
	engine.stop_match()
	expect_eq(engine.set_auto_play(true), GuandanEngine.ERR_NO_MATCH)
	expect_logged("rejected with code %d" % GuandanEngine.ERR_NO_MATCH)


func test_card_counter_matches_a_brute_force_count_at_every_step() -> void:
	var engine := make_engine()
	var advisor := MoveAdvisor.new()
	advisor.attach(engine)
	var checked := [0, 0]  # steps checked, mismatches
	var check := func(_a: Variant = null, _b: Variant = null, _c: Variant = null) -> void:
		if not engine.has_match() or engine.is_match_over():
			return
		var counter := advisor.card_counter()
		var hand := engine.get_hand()
		var expected := brute_force(hand, engine.get_played_cards())
		var shown := PackedInt32Array(counter.ranks)
		var total := 0
		for n in shown:
			total += n
		# Never more than the others hold: the three other hands' sizes are public.
		var others := 0
		var counts := engine.get_card_counts()
		for s in 4:
			if s != engine.get_local_seat():
				others += counts[s]
		checked[0] += 1
		if shown != expected or total != int(counter.total) or total < others:
			checked[1] += 1
	for sig in ["deal_started", "hand_changed", "cards_played", "passed", "tribute_given", "card_returned", "turn_started"]:
		engine.connect(sig, check)
	# The AI plays the player's seat too (auto-play), so a whole match runs by itself.
	expect_eq(engine.start_match(null, [null, 1, 1, 1], 33), GuandanEngine.OK)
	expect_eq(engine.set_auto_play(true), GuandanEngine.OK)
	var deals_seen := func() -> bool: return engine.is_match_over() or engine.get_deal_number() >= 2
	expect(await wait_until(deals_seen, 80.0), "two deals played")
	expect(checked[0] > 100, "checked at every step (%d steps)" % checked[0])
	expect_eq(checked[1], 0, "steps where the counter differs from the brute force")
	advisor.attach(null)


func test_players_are_named_in_the_record_and_statistics_come_from_saved_records() -> void:
	var engine := make_engine()
	expect_eq(engine.start_match(null, [null, 1, 1, 1], 45), GuandanEngine.OK)
	expect_eq(engine.set_players(PackedStringArray(["Tester", "", "", ""]), "training"), GuandanEngine.OK)
	expect_eq(engine.set_players(PackedStringArray(["only one"]), "x"), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	expect(engine.get_log_text().contains("\"Tester\""), "the name is in the record's header")
	expect_eq(engine.set_auto_play(true), GuandanEngine.OK)
	expect(await wait_until(func() -> bool: return engine.get_deal_number() >= 1 or engine.is_match_over(), 60.0), "a deal played")
	var rec := ReplayRecorder.new()
	expect_eq(rec.record(engine), GuandanEngine.OK)
	expect_eq(rec.save("zz_test_stats_good"), GuandanEngine.OK)
	var bad := FileAccess.open(ReplayRecorder.get_records_dir().path_join("zz_test_stats_bad.jsonl"), FileAccess.WRITE)
	bad.store_string("{ not a record\n")
	bad.close()
	var st: Dictionary = JSON.parse_string(ReplayRecorder.stats_json(false))
	expect(st.origin in ["rebuilt", "missing", "repaired"], "rebuilt for the new records (%s)" % st.origin)
	expect("zz_test_stats_good" in st.records, "the good record is counted")
	var damaged: Array = st.damaged.filter(func(d: Dictionary) -> bool: return d.name == "zz_test_stats_bad")
	expect_eq(damaged.size(), 1, "the damaged record is reported")
	if not damaged.is_empty():
		expect_eq(int(damaged[0].code), GuandanEngine.ERR_LOG_MALFORMED)
	var me: Dictionary = st.stats.players.get("Tester", {})
	expect(int(me.get("record", {}).get("deals", 0)) >= 1, "the named player has deals")
	# The typed answer the game's screens read says the same (the file is stored by now).
	var typed := ReplayRecorder.stats(false)
	expect_eq(typed.origin, "stored")
	expect_eq(typed.path, String(st.path))
	expect_eq(typed.matches.size(), (st.records as Array).size(), "a summary per counted record")
	var good := typed.summary("zz_test_stats_good")
	if expect(good != null, "the good record's summary"):
		expect_eq(good.mode, "training")
		expect_eq(Array(good.players)[0], "Tester")
		expect_eq(good.deals, int(st.stats.matches[(st.records as Array).find("zz_test_stats_good")].deals))
	expect_eq(typed.damaged.filter(func(d: DamagedRecord) -> bool: return d.name == "zz_test_stats_bad").size(), 1)
	var tester := typed.player("Tester")
	if expect(tester != null and typed.player("Nobody") == null, "figures by name"):
		expect_eq(tester.record.deals, int(me.record.deals))
		expect_eq(tester.plays, int(me.plays))
		for o: String in tester.oppositions:
			expect_eq(tester.against(o).matches, int(me.by_opponents[o].matches), "the record %s" % o)
	# Stored and reused; a damaged stats file is rebuilt, never trusted.
	var again: Dictionary = JSON.parse_string(ReplayRecorder.stats_json(false))
	expect_eq(again.origin, "stored")
	var f := FileAccess.open(String(st.path), FileAccess.WRITE)
	f.store_string("{ broken")
	f.close()
	var repaired: Dictionary = JSON.parse_string(ReplayRecorder.stats_json(false))
	expect_eq(repaired.origin, "repaired")
	expect_eq(repaired.stats, st.stats, "the same figures after the repair")
	expect_eq(ReplayRecorder.delete_record("zz_test_stats_good"), GuandanEngine.OK)
	expect_eq(ReplayRecorder.delete_record("zz_test_stats_bad"), GuandanEngine.OK)
	ReplayRecorder.stats_json(false)


func test_a_forced_panic_writes_a_crash_report_and_the_match_resumes() -> void:
	var engine := make_engine()
	var log := watch(engine)
	expect_eq(engine.start_match(null, [null, 1, 1, 1], 52), GuandanEngine.OK)
	expect_eq(engine.set_auto_play(true), GuandanEngine.OK)
	expect(await wait_until(func() -> bool: return engine.get_action_count() >= 130), "130 actions played")
	engine.paused = true
	var hash := engine.get_state_hash()
	var actions := engine.get_action_count()
	expect_eq(engine.debug_force_panic(), GuandanEngine.ERR_INTERNAL, "the panic comes back as a code")
	expect_logged("[panic")  # gdext's panic hook logs it; the guard catches it
	expect_logged("fatal error during debug_force_panic")
	expect_logged("rejected with code %d" % GuandanEngine.ERR_INTERNAL)
	var crashed := of(log, "crashed")
	expect_eq(crashed.size(), 1, "crashed emitted once")
	expect(not engine.has_match(), "the match was stopped")
	var path: String = engine.get_last_crash_report()
	expect(path != "" and crashed.size() == 1 and crashed[0][1] == path, "the report path is announced")
	var report: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(path))
	expect(String(report.error).contains("forced panic"), "the error is in the report")
	expect_eq((report.last_actions as Array).size(), 100, "the last 100 actions")
	expect_eq(int(report.valid_actions), actions, "every action was valid")
	# The player resumes from the last valid state: the same state, and the match goes on.
	engine.paused = false
	expect_eq(engine.resume_last_valid(["human", 1, 1, 1]), GuandanEngine.OK)
	expect_eq(engine.get_state_hash(), hash, "resumed at the exact state")
	expect_eq(engine.resume_last_valid(["human", 1, 1, 1]), GuandanEngine.ERR_NO_RECORD, "only once")
	expect_logged("rejected with code %d" % GuandanEngine.ERR_NO_RECORD)
	expect_eq(engine.set_auto_play(true), GuandanEngine.OK)
	expect(await wait_until(func() -> bool: return engine.get_action_count() > actions + 5 or engine.is_match_over()), "the match goes on")
	DirAccess.remove_absolute(path)
