extends GdTestSuite
## MoveAdvisor and ReplayRecorder: real answers for good input, warnings (no crash) for bad.


func test_card_notation() -> void:
	var advisor := MoveAdvisor.new()
	expect_eq(advisor.card_notation(0), "S2")
	expect_eq(advisor.card_notation(54), "S2", "second deck, same card")
	expect_eq(advisor.card_notation(8), "ST")
	expect_eq(advisor.card_notation(52), "SB", "small joker")
	expect_eq(advisor.card_notation(107), "HR", "big joker")


func test_card_notation_rejects_bad_ids() -> void:
	var advisor := MoveAdvisor.new()
	for id in [-1, 108, 1 << 40]:
		expect_eq(advisor.card_notation(id), "", "id %d" % id)
		expect_logged("card id %d is not in 0..107" % id)


func test_hand_notation() -> void:
	var advisor := MoveAdvisor.new()
	expect_eq(advisor.hand_notation(PackedInt32Array([107, 0, 54, 13])), "S2 S2 H2 HR")
	expect_eq(advisor.hand_notation(PackedInt32Array()), "")
	expect_eq(advisor.hand_notation(PackedInt32Array([3, 3])), "")
	expect_logged("listed twice")
	expect_eq(advisor.hand_notation(PackedInt32Array([200])), "")
	expect_logged("out of range")


func test_replay_recorder_holds_the_seed() -> void:
	var recorder := ReplayRecorder.new()
	expect(not recorder.is_recording())
	recorder.begin(42)
	expect(recorder.is_recording())
	expect_eq(recorder.get_seed(), 42)
	recorder.begin(-5)
	expect_eq(recorder.get_seed(), -5, "negative seeds round-trip")
	recorder.clear()
	expect(not recorder.is_recording())
	expect_eq(recorder.get_seed(), 0)
	expect_logged("nothing recorded")
