extends EngineTestSuite
## ReplayRecorder: records of GuandanEngine matches, user://records files (atomic, versioned,
## corrupt files refused with codes), playback by step and seek, restoring a match from a record.

const NAME := "test_replay_record"
const JUNK := "test_replay_junk"


func after_each() -> void:
	for name in [NAME, JUNK]:
		if name in ReplayRecorder.list_records():
			ReplayRecorder.delete_record(name)


## A finished four-AI match (L1: quick) and its record.
func _recorded_match(seed := 21) -> Array:
	var engine := make_engine()
	engine.start_match(load(COMPETITION), [1, 1, 1, 1], seed)
	expect(await wait_until(func() -> bool: return engine.is_match_over(), 60.0), "the match ends")
	var recorder := ReplayRecorder.new()
	expect_eq(recorder.record(engine), GuandanEngine.OK)
	return [engine, recorder]


func test_records_save_load_and_delete() -> void:
	var made: Array = await _recorded_match()
	var engine: GuandanEngine = made[0]
	var recorder: ReplayRecorder = made[1]
	expect_eq(recorder.get_action_count(), engine.get_action_count())
	expect_eq(recorder.get_position(), recorder.get_action_count(), "a fresh record stands at its end")
	expect_eq(recorder.get_state_hash(), engine.get_state_hash())
	expect_eq(recorder.to_text(), engine.get_log_text())
	expect_eq(recorder.get_seed(), 21)
	expect_eq(recorder.get_rules().to_json(), engine.get_rules().to_json())
	expect_eq(recorder.save(NAME), GuandanEngine.OK)
	expect(NAME in ReplayRecorder.list_records(), "listed")
	var dir := ReplayRecorder.get_records_dir()
	expect_eq(dir, ProjectSettings.globalize_path("user://records"))
	for file in DirAccess.get_files_at(dir):
		expect(not file.ends_with(".tmp"), "no temporary file left: %s" % file)
	expect(FileAccess.get_file_as_string("user://records/%s.jsonl" % NAME).begins_with("{\"version\":1,"),
		"versioned JSON Lines")
	var loaded := ReplayRecorder.new()
	expect_eq(loaded.load(NAME + ".jsonl"), GuandanEngine.OK, "the extension may be given")
	expect_eq(loaded.get_position(), 0, "a loaded record starts at the beginning")
	expect_eq(loaded.get_final_hash(), engine.get_state_hash())
	expect_eq(ReplayRecorder.delete_record(NAME), GuandanEngine.OK)
	expect(NAME not in ReplayRecorder.list_records(), "deleted")
	expect_eq(loaded.load(NAME), GuandanEngine.ERR_NOT_FOUND)
	expect_logged("no such record")
	expect(not loaded.has_record(), "a failed load empties the recorder")
	expect_eq(ReplayRecorder.delete_record(NAME), GuandanEngine.ERR_NOT_FOUND)
	expect_logged("no such record")


func test_bad_names_and_empty_recorders() -> void:
	var recorder := ReplayRecorder.new()
	expect_eq(recorder.save(NAME), GuandanEngine.ERR_NO_RECORD)
	expect_logged("nothing recorded")
	expect_eq(recorder.seek(0), GuandanEngine.ERR_NO_RECORD)
	expect_logged("nothing recorded")
	expect_eq(recorder.step_forward(), GuandanEngine.ERR_NO_RECORD)
	expect_logged("nothing recorded")
	expect(recorder.get_state() == null, "no state without a record")
	expect_eq(recorder.get_events(), [] as Array[RecordedSignal])
	expect_eq(recorder.record(null), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("engine is null")
	expect_eq(recorder.record(make_engine()), GuandanEngine.ERR_NO_MATCH)
	expect_logged("no match")
	for name in ["", "../evil", "a/b", ".hidden", "x".repeat(65)]:
		expect_eq(recorder.load(name), GuandanEngine.ERR_BAD_ARGUMENT, "name %s" % name)
		expect_logged("record name")


func test_corrupt_files_give_codes_never_crashes() -> void:
	var made: Array = await _recorded_match(5)
	var good: String = made[1].to_text()
	var lines := good.split("\n", false)
	var checkpoint := lines[lines.size() - 1]
	expect(checkpoint.contains("\"hash\""), "the record ends with a checkpoint")
	var cases := {
		"": GuandanEngine.ERR_LOG_EMPTY,
		"not json at all": GuandanEngine.ERR_LOG_MALFORMED,
		good.replace("{\"version\":1,", "{\"version\":99,"): GuandanEngine.ERR_LOG_VERSION,
		good.substr(0, good.length() - 20): GuandanEngine.ERR_LOG_MALFORMED,
		good.replace(checkpoint, checkpoint.substr(0, checkpoint.length() - 10) + "00000000\"}"): GuandanEngine.ERR_LOG_HASH,
		# The first action missing: the final checkpoint now lies past the end.
		"\n".join(lines.slice(0, 1) + lines.slice(2)): GuandanEngine.ERR_LOG_CHECKPOINT,
		# The first two actions swapped: the second does not fit the start.
		"\n".join(lines.slice(0, 1) + lines.slice(2, 3) + lines.slice(1, 2) + lines.slice(3)): GuandanEngine.ERR_LOG_REJECTED,
	}
	var recorder := ReplayRecorder.new()
	for text: String in cases:
		var file := FileAccess.open("user://records/%s.jsonl" % JUNK, FileAccess.WRITE)
		file.store_string(text)
		file.close()
		var code := recorder.load(JUNK)
		expect_eq(code, cases[text], "case starting %s" % var_to_str(text.substr(0, 30)))
		expect_logged("(code %d)" % cases[text])
		expect(not recorder.has_record(), "nothing loaded")
		expect(recorder.get_last_error() != "", "a message")
		expect_eq(recorder.load_text(text), cases[text], "the same from text")
		expect_logged("(code %d)" % cases[text])
	# Bytes that are not UTF-8.
	var raw := FileAccess.open("user://records/%s.jsonl" % JUNK, FileAccess.WRITE)
	raw.store_buffer(PackedByteArray([0xff, 0xfe, 0x00, 0x80]))
	raw.close()
	expect_eq(recorder.load(JUNK), GuandanEngine.ERR_LOG_MALFORMED)
	expect_logged("not UTF-8")
	expect_eq(recorder.load_text(good), GuandanEngine.OK, "the good text still loads")
	# A seat outside 0-3 has no hand (GDScript's int becomes a Seat, or nothing).
	expect_eq(recorder.get_hand(0).size(), 27, "seat 0's hand at the start")
	expect_eq(recorder.get_hand(4), PackedInt32Array(), "no seat 4")
	expect_eq(recorder.get_hand(-1), PackedInt32Array(), "no seat -1")


func test_stepping_and_seeking_restore_the_same_states() -> void:
	var made: Array = await _recorded_match(9)
	var engine: GuandanEngine = made[0]
	var recorder: ReplayRecorder = made[1]
	var count := recorder.get_action_count()
	expect_eq(recorder.seek(0), GuandanEngine.OK)
	var hashes := [recorder.get_state_hash()]
	for i in count:
		expect_eq(recorder.step_forward(), GuandanEngine.OK)
		hashes.append(recorder.get_state_hash())
	expect_eq(hashes[-1], engine.get_state_hash(), "stepping to the end reproduces the match")
	expect_eq(recorder.step_forward(), GuandanEngine.ERR_BAD_ARGUMENT, "past the end")
	expect_logged("end of the record")
	for n in [count - 1, 0, 1, 31, 32, 33, count / 2, count]:
		expect_eq(recorder.seek(n), GuandanEngine.OK)
		expect_eq(recorder.get_state_hash(), hashes[n], "seek(%d)" % n)
	expect_eq(recorder.seek(40), GuandanEngine.OK)
	expect_eq(recorder.step_back(), GuandanEngine.OK)
	expect_eq(recorder.get_position(), 39)
	expect_eq(recorder.get_state_hash(), hashes[39], "step back")
	expect_eq(recorder.seek(0), GuandanEngine.OK)
	expect_eq(recorder.step_back(), GuandanEngine.ERR_BAD_ARGUMENT, "before the start")
	expect_logged("start of the record")
	for bad in [-1, count + 1]:
		expect_eq(recorder.seek(bad), GuandanEngine.ERR_BAD_ARGUMENT)
		expect_logged("position")
	var state := recorder.get_state()
	for hand in state.hands:
		expect_eq(hand.size(), 27, "a replay shows every hand")


func test_events_and_actions_of_each_step() -> void:
	var made: Array = await _recorded_match(13)
	var recorder: ReplayRecorder = made[1]
	recorder.seek(0)
	var start := recorder.get_events().map(func(e: RecordedSignal) -> String: return e.signal)
	expect_eq(start, ["match_started", "deal_started", "turn_started"])
	var plays := 0
	for i in 60:
		var action := recorder.get_action(i)
		recorder.step_forward()
		var events := recorder.get_events()
		expect(not events.is_empty(), "action %d did something" % i)
		match action.kind:
			"play":
				plays += 1
				expect_eq(events[0].signal, &"cards_played")
				expect_eq(events[0].args[0], action.seat)
				var cards: PackedInt32Array = action.cards.duplicate()
				cards.sort()
				expect_eq((events[0].args[1] as Play).cards, cards)
				expect_eq(action.card, -1, "a play gives no single card")
			"pass":
				expect_eq(events[0].signal, &"passed")
				expect_eq(events[0].args, [action.seat])
	expect(plays > 10, "plays were stepped through")
	expect(recorder.get_action(-1) == null and recorder.get_action(1 << 40) == null, "no action out of range")


func test_a_match_resumes_from_a_record() -> void:
	var made: Array = await _recorded_match(17)
	var recorder: ReplayRecorder = made[1]
	expect_eq(recorder.seek(150), GuandanEngine.OK)
	var engine := make_engine()
	var log := watch(engine)
	expect_eq(engine.resume_from(recorder, [1, 1, 1, 1]), GuandanEngine.OK)
	expect_eq(engine.get_state_hash(), recorder.get_state_hash(), "the exact state is restored")
	expect_eq(engine.get_action_count(), 150)
	expect_eq(names(log).slice(0, 2), ["match_started", "deal_started"])
	expect(await wait_until(func() -> bool: return engine.is_match_over(), 60.0), "and plays on to the end")
	var again := ReplayRecorder.new()
	expect_eq(again.record(engine), GuandanEngine.OK, "the resumed match's record replays")
	expect_eq(again.to_text().split("\n").slice(0, 150), recorder.to_text().split("\n").slice(0, 150),
		"it starts with the same actions")
	expect_eq(engine.resume_from(null, [1, 1, 1, 1]), GuandanEngine.ERR_BAD_ARGUMENT)
	expect_logged("rejected with code 12")
	expect_eq(engine.resume_from(ReplayRecorder.new(), [1, 1, 1, 1]), GuandanEngine.ERR_NO_RECORD)
	expect_logged("rejected with code 32")


func test_resume_announces_the_phase_in_progress() -> void:
	var made: Array = await _recorded_match(5)
	var recorder: ReplayRecorder = made[1]
	# The first position of each phase after the first deal (tribute, return, play).
	var found := {}
	for n in range(1, recorder.get_action_count()):
		recorder.seek(n)
		var st := recorder.get_state()
		if st.deal_no >= 1 and not found.has(st.phase):
			found[st.phase] = n
		if found.size() >= 3:
			break
	for phase in [GuandanEngine.PHASE_TRIBUTE, GuandanEngine.PHASE_RETURN, GuandanEngine.PHASE_PLAY]:
		if not expect(found.has(phase), "the record has a position in phase %d" % phase):
			continue
		recorder.seek(found[phase])
		var seat: int = recorder.get_state().to_act[0]
		var seats: Array = [1, 1, 1, 1]
		seats[seat] = "human"
		var engine := make_engine()
		engine.paused = true  # the AI seats wait: only the announcement is looked at
		var log := watch(engine)
		expect_eq(engine.resume_from(recorder, seats), GuandanEngine.OK)
		expect_eq(engine.get_local_seat(), seat)
		var got := names(log)
		expect_eq(got.slice(0, 3), ["match_started", "deal_started", "hand_changed"], "phase %d: the deal and the hand" % phase)
		expect_eq(of(log, "hand_changed")[-1][0], engine.get_hand(), "the human's own hand, as it is now")
		match phase:
			GuandanEngine.PHASE_TRIBUTE:
				expect(seat in PackedInt32Array(of(log, "tribute_phase")[-1][0]), "the tribute is due again from seat %d" % seat)
				expect(not engine.get_tribute_options().is_empty(), "and the human may pay it")
				expect_eq(engine.give_tribute(engine.get_tribute_options()[0]), GuandanEngine.OK)
			GuandanEngine.PHASE_RETURN:
				expect("tribute_phase" in got and "tribute_given" in got, "the tributes are shown again: %s" % [got])
				expect(seat in PackedInt32Array(of(log, "return_phase")[-1][0]), "the return is due again from seat %d" % seat)
				expect(not engine.get_return_options().is_empty(), "and the human may return")
				expect_eq(engine.return_card(engine.get_return_options()[0]), GuandanEngine.OK)
			GuandanEngine.PHASE_PLAY:
				expect_eq(of(log, "turn_started")[-1][0], seat, "the turn is announced again")
		engine.queue_free()
