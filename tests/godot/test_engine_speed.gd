extends EngineTestSuite
## A match driven from GDScript by hints: every hint is a play or pass the engine accepts, and the
## calls a table makes each turn (hint, readings, state, hand) answer. Prints how long each call
## took, for comparing builds; speed is not asserted here (a loaded machine would fail a timed
## test, not a slow engine): the benchmarks are `guandan bench` and `tools/test-ui perf`.

const TURNS := 60


func test_hints_drive_a_match_and_every_call_answers() -> void:
	var engine := make_engine()
	var advisor := MoveAdvisor.new()
	advisor.attach(engine)
	var times := {"play/pass": [], "hint": [], "readings": [], "get_state": [], "get_hand": []}
	engine.start_match(null, [null, 2, 2, 2], 31)
	for turn in TURNS:
		var ok := await wait_until(func() -> bool:
			if engine.is_local_turn() and engine.get_phase() == GuandanEngine.PHASE_TRIBUTE:
				engine.give_tribute(engine.get_tribute_options()[0])
			elif engine.is_local_turn() and engine.get_phase() == GuandanEngine.PHASE_RETURN:
				engine.return_card(engine.get_return_options()[0])
			return engine.is_match_over() or (engine.is_local_turn() and engine.get_phase() == GuandanEngine.PHASE_PLAY))
		if not expect(ok, "turn %d comes" % turn) or engine.is_match_over():
			break
		var t := Time.get_ticks_usec()
		var hint := advisor.hint()
		times.hint.append(Time.get_ticks_usec() - t)
		expect(hint != null, "turn %d: a hint" % turn)
		t = Time.get_ticks_usec()
		advisor.readings(engine.get_hand().slice(0, 3))
		times.readings.append(Time.get_ticks_usec() - t)
		t = Time.get_ticks_usec()
		var state := engine.get_state()
		times.get_state.append(Time.get_ticks_usec() - t)
		expect(state != null, "turn %d: the state" % turn)
		t = Time.get_ticks_usec()
		var hand := engine.get_hand()
		times.get_hand.append(Time.get_ticks_usec() - t)
		expect(not hand.is_empty(), "turn %d: the hand" % turn)
		t = Time.get_ticks_usec()
		var code := engine.pass_turn() if hint.passed else engine.play(hint.play.cards)
		times["play/pass"].append(Time.get_ticks_usec() - t)
		expect_eq(code, GuandanEngine.OK)
	for what: String in times:
		var samples: Array = times[what]
		if not expect(samples.size() >= 20, "%s measured %d times" % [what, samples.size()]):
			continue
		samples.sort()
		var mean: float = samples.reduce(func(a: int, b: int) -> int: return a + b, 0) / float(samples.size())
		var median: int = samples[samples.size() / 2]
		print("       %-10s mean %4.0f us, median %4d us, max %5d us (%d calls)" % [
			what, mean, median, samples[-1], samples.size()])
