extends EngineTestSuite
## A scripted human seat against AI seats: legal and illegal actions (wrong turn, cards not
## owned, cannot beat, bad tribute, malformed arguments) get the right error codes and the match
## goes on; signal handlers may call back into the engine; the turn timer acts for a silent human.

var _engine: GuandanEngine
var _advisor: MoveAdvisor
var _checked := {}  # what the scripted human has tried, by name


func before_each() -> void:
	_engine = make_engine()
	_advisor = MoveAdvisor.new()
	_advisor.attach(_engine)
	_checked = {}


## Expects a call's code, and claims the warning the engine logs for a rejected call.
func _expect_code(code: int, expected: int, what: String) -> void:
	expect_eq(code, expected, what)
	if expected != GuandanEngine.OK:
		expect_logged("rejected with code %d" % expected)
	_checked[what] = true


func test_a_scripted_human_gets_the_right_error_codes_and_the_match_goes_on() -> void:
	var log := watch(_engine)
	_expect_code(_engine.start_match(null, [null, 1, 1, 1], 11), GuandanEngine.OK, "start")
	var failed_calls := 0
	while true:
		var ready := await wait_until(func() -> bool: return _engine.is_local_turn() or _engine.is_match_over())
		if not expect(ready, "the human gets a duty or the match ends"):
			return
		if _engine.is_match_over():
			break
		var hand := _engine.get_hand()
		match _engine.get_phase():
			GuandanEngine.PHASE_TRIBUTE:
				var options := _engine.get_tribute_options()
				var lower := Array(hand).filter(func(id: int) -> bool: return id not in options)
				if not lower.is_empty():
					_expect_code(_engine.give_tribute(lower[0]), GuandanEngine.ERR_INVALID_TRIBUTE, "tribute too low")
					failed_calls += 1
				_expect_code(_engine.return_card(options[0]), GuandanEngine.ERR_INVALID_TRIBUTE, "return in tribute")
				_expect_code(_engine.play(PackedInt32Array([hand[0]])), GuandanEngine.ERR_STATE_CONFLICT,
					"play in tribute")
				_expect_code(_engine.give_tribute(options[0]), GuandanEngine.OK, "tribute")
				failed_calls += 2
			GuandanEngine.PHASE_RETURN:
				var options := _engine.get_return_options()
				var barred := Array(hand).filter(func(id: int) -> bool: return id not in options)
				if not barred.is_empty():
					_expect_code(_engine.return_card(barred[-1]), GuandanEngine.ERR_INVALID_TRIBUTE, "return barred")
					failed_calls += 1
				_expect_code(_engine.return_card(options[0]), GuandanEngine.OK, "return")
			GuandanEngine.PHASE_PLAY:
				failed_calls += _try_bad_plays(hand)
				# Strong on even deals, weak on odd ones, so the human both gives and gets tribute.
				var hint := _advisor.hint()
				var passing := hint.passed or (_engine.get_deal_number() % 2 == 1 and _engine.can_pass())
				var code := _engine.pass_turn() if passing else _engine.play(hint.play.cards)
				_expect_code(code, GuandanEngine.OK, "legal move")
				if not _engine.is_local_turn() and not _engine.is_match_over() and not _checked.has("wrong turn"):
					_expect_code(_engine.pass_turn(), GuandanEngine.ERR_NOT_YOUR_TURN, "wrong turn")
					failed_calls += 1
	for what in ["cannot pass", "not owned", "out of range", "twice", "empty", "no combination",
			"bad reading", "tribute in play", "return in play", "cannot beat", "wrong turn",
			"tribute too low", "tribute", "return"]:
		expect(_checked.has(what), "the script tried: %s" % what)
	var errors := of(log, "error")
	expect_eq(errors.size(), failed_calls, "one error signal per failed call")
	expect(errors.all(func(e: Array) -> bool: return e[0] > 0 and e[1] != ""), "error signals carry code and message")
	expect_eq(of(log, "match_ended").size(), 1, "the match went on to its end")
	# Tribute and return cards are shown only to the two seats involved.
	var exchanges: Array = of(log, "tribute_given") + of(log, "card_returned")
	expect(exchanges.any(func(e: Array) -> bool: return 0 not in [e[0], e[1]]), "some exchange without seat 0")
	for e in exchanges:
		if 0 in [e[0], e[1]]:
			expect(e[2] >= 0, "seat 0 sees its own exchange %s" % [e])
		else:
			expect_eq(e[2], -1, "seat 0 does not see %s" % [e])


## The illegal plays of a turn, once each per match; returns how many calls failed.
func _try_bad_plays(hand: PackedInt32Array) -> int:
	var failed := 0
	if not _engine.can_pass() and not _checked.has("cannot pass"):
		_expect_code(_engine.pass_turn(), GuandanEngine.ERR_CANNOT_PASS, "cannot pass")
		failed += 1
	if not _checked.has("not owned"):
		_expect_code(_engine.play(PackedInt32Array([not_in(hand)])), GuandanEngine.ERR_CARD_NOT_FOUND, "not owned")
		_expect_code(_engine.play(PackedInt32Array([500])), GuandanEngine.ERR_INVALID_CARDS, "out of range")
		_expect_code(_engine.play(PackedInt32Array([hand[0], 200])), GuandanEngine.ERR_INVALID_CARDS, "card 200")
		_expect_code(_engine.play(PackedInt32Array([hand[0], hand[0]])), GuandanEngine.ERR_INVALID_CARDS, "twice")
		_expect_code(_engine.play(PackedInt32Array()), GuandanEngine.ERR_INVALID_CARDS, "empty")
		_expect_code(_engine.play(PackedInt32Array([hand[0]]), 99), GuandanEngine.ERR_BAD_ARGUMENT, "bad reading")
		_expect_code(_engine.play(PackedInt32Array([hand[0]]), -2), GuandanEngine.ERR_BAD_ARGUMENT, "bad reading")
		_expect_code(_engine.give_tribute(hand[0]), GuandanEngine.ERR_INVALID_TRIBUTE, "tribute in play")
		_expect_code(_engine.give_tribute(-1), GuandanEngine.ERR_INVALID_CARDS, "tribute out of range")
		_expect_code(_engine.give_tribute(200), GuandanEngine.ERR_INVALID_CARDS, "tribute card 200")
		_expect_code(_engine.return_card(108), GuandanEngine.ERR_INVALID_CARDS, "return card 108")
		_expect_code(_engine.return_card(hand[0]), GuandanEngine.ERR_INVALID_TRIBUTE, "return in play")
		failed += 12
	var pair := non_combination(_advisor, hand)
	if not pair.is_empty() and not _checked.has("no combination"):
		_expect_code(_engine.play(pair), GuandanEngine.ERR_INVALID_CARDS, "no combination")
		failed += 1
	if _engine.can_pass() and not _checked.has("cannot beat"):
		var low := losing_single(_advisor, hand)
		if low >= 0:
			_expect_code(_engine.play(PackedInt32Array([low])), GuandanEngine.ERR_CANNOT_BEAT, "cannot beat")
			failed += 1
	return failed


func test_signal_handlers_may_call_back_into_the_engine() -> void:
	var local := [-1]
	var acted := [0]
	var over := [false]
	var log := watch(_engine)
	_engine.match_started.connect(func(_seed: int, seat: int) -> void:
		local[0] = seat
		expect_eq(_engine.get_local_seat(), seat, "state is updated before the signal"))
	_engine.turn_started.connect(func(seat: int, can_pass: bool, _limit: float) -> void:
		if seat != local[0]:
			return
		expect(_engine.is_local_turn(), "the turn is ours when told so")
		expect_eq(_engine.can_pass(), can_pass)
		var hint := _advisor.hint()
		var code := _engine.pass_turn() if hint.passed else _engine.play(hint.play.cards)
		expect_eq(code, GuandanEngine.OK, "acting from inside turn_started")
		acted[0] += 1)
	_engine.tribute_phase.connect(func(payers: PackedInt32Array, resisted: bool) -> void:
		if not resisted and local[0] in payers:
			expect_eq(_engine.give_tribute(_engine.get_tribute_options()[0]), GuandanEngine.OK, "tribute from a handler"))
	_engine.return_phase.connect(func(receivers: PackedInt32Array) -> void:
		if local[0] in receivers:
			expect_eq(_engine.return_card(_engine.get_return_options()[0]), GuandanEngine.OK, "return from a handler"))
	var deal := [-1]
	_engine.deal_started.connect(func(deal_no: int, _level: int, _declarer: int) -> void: deal[0] = deal_no)
	_engine.cards_played.connect(func(seat: int, play: Play) -> void:
		var state := _engine.get_state()
		expect(state != null, "get_state from a handler")
		# Getters give the state after the whole action: when the play ended the deal, that is
		# already the next deal (new hands); otherwise the cards have left the hand.
		if seat == local[0] and _engine.get_deal_number() == deal[0]:
			for id in play.cards:
				expect(id not in _engine.get_hand(), "played cards left the hand"))
	_engine.match_ended.connect(func(_w: int, _r: String) -> void: over[0] = true)
	expect_eq(_engine.start_match(null, [null, 2, 2, 2], 3), GuandanEngine.OK)
	expect(await wait_until(func() -> bool: return over[0], 90.0), "the match ends")
	expect(acted[0] > 10, "the human played from handlers (%d times)" % acted[0])
	expect_eq(of(log, "error"), [], "no errors")
	# Signals keep their order although the handler acts in the middle of them: a turn is
	# always announced before the seat's play or pass.
	var turn := -1
	for entry in log:
		match entry[0]:
			"turn_started":
				turn = entry[1][0]
			"cards_played", "passed":
				expect_eq(entry[1][0], turn, "%s by the seat whose turn was announced" % entry[0])
				turn = -1


func test_a_new_match_can_start_from_the_match_ended_handler() -> void:
	var log := watch(_engine)
	var restarted := [false]
	_engine.match_ended.connect(func(_w: int, _r: String) -> void:
		if not restarted[0]:
			restarted[0] = true
			expect_eq(_engine.start_match(null, [1, 1, 1, 1], 99), GuandanEngine.OK))
	_engine.start_match(null, [null, 1, 1, 1], 4)
	expect_eq(_engine.propose_surrender(), GuandanEngine.OK)
	expect_eq(of(log, "match_started").size(), 2, "the second match started")
	var second := names(log).rfind("match_started")
	expect_eq(log[second + 1][0], "deal_started", "the new match deals next")
	expect_eq(log[second + 1][1][0], 0, "from deal 0")
	expect_eq(_engine.get_seed(), 99)
	expect_eq(_engine.get_action_count(), 0, "the new match has no actions yet")


func test_surrender_ends_the_match_when_everyone_accepts() -> void:
	var log := watch(_engine)
	_engine.start_match(null, [null, 1, 1, 1], 8)
	_expect_code(_engine.surrender_vote(true), GuandanEngine.ERR_STATE_CONFLICT, "vote without proposal")
	_expect_code(_engine.propose_surrender(), GuandanEngine.OK, "propose")
	expect_eq(of(log, "surrender_proposed"), [[0]])
	expect_eq(of(log, "surrender_voted"), [[1, true], [2, true], [3, true]], "the AI seats accept")
	expect_eq(of(log, "match_ended"), [[1, "surrender"]])
	expect_eq(_engine.get_end_reason(), "surrender")
	_expect_code(_engine.propose_surrender(), GuandanEngine.ERR_GAME_OVER, "after the end")
	_expect_code(_engine.pass_turn(), GuandanEngine.ERR_GAME_OVER, "after the end")
	var thinking := of(log, "ai_thinking").size()
	expect(not _engine.is_ai_thinking(), "AI work for the ended match is dropped")
	await frames(3)
	expect_eq(of(log, "ai_thinking").size(), thinking, "no AI work after the end")
	expect_eq(of(log, "ai_decided"), [], "the dropped decision never arrives")


func test_the_turn_timer_acts_for_a_silent_human() -> void:
	var rules := GuandanRules.preset("competition")
	rules.turn_time_limit_s = 1
	_engine.use_turn_timer = true
	var log := watch(_engine)
	_engine.start_match(rules, [null, 1, 1, 1], 5)
	expect(await wait_until(func() -> bool: return _engine.is_local_turn(), 10.0), "the human's turn comes")
	var left := _engine.get_time_left()
	expect(left > 0.0 and left <= 1.0, "time left %f is within the limit" % left)
	var start := Time.get_ticks_msec()
	expect(await wait_until(func() -> bool: return of(log, "turn_timed_out").size() >= 2, 10.0), "two timeouts")
	var elapsed := (Time.get_ticks_msec() - start) / 1000.0
	expect(elapsed >= 1.0, "a turn lasts its limit (%.2f s for two)" % elapsed)
	for args in of(log, "turn_started"):
		expect_eq(args[2], 1.0 if args[0] == 0 else 0.0, "time limit of seat %d" % args[0])
	expect_eq(of(log, "turn_timed_out")[0], [0])
	# The engine acted for the human: a pass, or its smallest single when leading.
	var first := names(log).find("turn_timed_out")
	expect(log[first + 1][0] in ["passed", "cards_played"], "the timeout acts: %s" % log[first + 1][0])
	expect_eq(log[first + 1][1][0], 0)
	expect_eq(of(log, "error"), [])
