extends EngineTestSuite
## Hot-seat through the runtime: two human seats (0 and 2) share one GuandanEngine. The engine
## shows the human that must act (viewer_changed, then that seat's hand), acts for it, and never
## shows either human the other one's hand — in signals or getters.

const SEED := 8
const HUMANS: Array[int] = [0, 2]


func test_two_human_seats_each_get_their_own_hand_only() -> void:
	var engine := make_engine()
	var advisor := MoveAdvisor.new()
	advisor.attach(engine)
	var dealt: Array[PackedInt32Array] = engine.deal(SEED)
	var problems: Array[String] = []
	var stats := {viewer_changes = 0, hands = 0, hands_by_seat = {0: 0, 2: 0}, hidden_cards = 0}
	var viewer := [-1]
	engine.match_started.connect(func(_seed: int, local: int) -> void: viewer[0] = local)
	engine.viewer_changed.connect(func(seat: int) -> void:
		stats.viewer_changes += 1
		if seat not in HUMANS:
			problems.append("viewer_changed to AI seat %d" % seat)
		viewer[0] = seat)
	engine.hand_changed.connect(func(hand: PackedInt32Array) -> void:
		stats.hands += 1
		var seat: int = viewer[0]
		stats.hands_by_seat[seat] = int(stats.hands_by_seat.get(seat, 0)) + 1
		# (Getters already show the latest state, which may be another viewer's: the signal
		# stream is what is checked here.)
		if engine.get_deal_number() == 0:
			# Before any tribute a hand is what the seed dealt that seat, less its plays.
			for id in hand:
				if id not in dealt[seat]:
					problems.append("seat %d was shown card %d of another hand" % [seat, id])
					break)
	engine.tribute_given.connect(func(from: int, to: int, card: int) -> void:
		if card >= 0 and viewer[0] != from and viewer[0] != to:
			problems.append("seat %d saw the tribute %d -> %d" % [viewer[0], from, to])
		if card < 0:
			stats.hidden_cards += 1)
	expect_eq(engine.start_match(null, [null, 1, "human", 1], SEED), GuandanEngine.OK)
	expect(engine.get_local_seat() in HUMANS, "a human seat is shown from the start")
	var actions := 0
	var deals_done := [0]
	engine.deal_ended.connect(func(_o: PackedInt32Array, _c: LevelChange) -> void: deals_done[0] += 1)
	while deals_done[0] < 2 and not engine.is_match_over() and actions < 800:
		if not await wait_until(func() -> bool: return engine.is_local_turn() or engine.is_match_over(), 30.0):
			fail("a human gets a duty")
			break
		if engine.is_match_over():
			break
		var seat := engine.get_local_seat()
		_check_views(engine, seat)
		var code := _act(engine, advisor)
		if not expect_eq(code, GuandanEngine.OK, "seat %d acts" % seat):
			break
		actions += 1
	expect(deals_done[0] >= 2 or engine.is_match_over(), "two deals were played (%d actions)" % actions)
	expect(problems.is_empty(), "no hand shown to the wrong seat: %s" % [problems.slice(0, 5)])
	expect(stats.viewer_changes >= 4, "the viewer went back and forth (%d changes)" % stats.viewer_changes)
	expect(stats.hands_by_seat[0] > 0 and stats.hands_by_seat[2] > 0,
		"both humans got their hand (%s)" % [stats.hands_by_seat])
	advisor.attach(null)


## Getters show the viewer's hand and no other human's.
func _check_views(engine: GuandanEngine, seat: int) -> void:
	var other: int = 2 - seat
	expect_eq(engine.get_seat_hand(seat), engine.get_hand(), "getter: own hand")
	var hidden := engine.get_seat_hand(other)
	if expect(hidden.is_empty(), "getter: seat %d may not read seat %d's hand" % [seat, other]):
		expect_logged("hidden from the viewer")
	var hands: Array[PackedInt32Array] = engine.get_state().hands
	for s in 4:
		expect_eq((hands[s] as PackedInt32Array).is_empty(), s != seat, "state shows hand %d to seat %d only" % [s, seat])


## The viewer's action: its tribute or return, else the advisor's first legal play, else pass.
func _act(engine: GuandanEngine, advisor: MoveAdvisor) -> int:
	match engine.get_phase():
		GuandanEngine.PHASE_TRIBUTE:
			return engine.give_tribute(engine.get_tribute_options()[0])
		GuandanEngine.PHASE_RETURN:
			return engine.return_card(engine.get_return_options()[0])
	var plays := advisor.legal_plays(PackedInt32Array())
	if plays.is_empty():
		return engine.pass_turn()
	return engine.play(PackedInt32Array(plays[0].cards))


func test_an_open_surrender_proposal_waits_for_the_human_partner() -> void:
	var engine := make_engine()
	expect_eq(engine.start_match(null, [null, 1, "human", 1], SEED), GuandanEngine.OK)
	expect(engine.get_surrender() == null, "no proposal yet")
	var me := engine.get_local_seat()
	if not expect_eq(engine.propose_surrender(), GuandanEngine.OK, "seat %d proposes" % me):
		return
	var open: SurrenderProposal = engine.get_surrender()
	if expect(open != null, "the proposal waits for the human partner's vote"):
		expect_eq([open.team, open.proposer], [me % 2, me], "the proposer's team and seat")
		var partner := (me + 2) % 4
		expect(me in open.accepted and partner not in open.accepted, "the partner has not voted: %s" % open.accepted)
