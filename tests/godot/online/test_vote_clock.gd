extends GdTestSuite
## A surrender vote asked of the player (issue 52, item 3: Bob had 2 s left behind his partner's
## dialog, his lead was played for him): on the player's own turn the dialog shows the turn's
## clock, live, and answers "keep playing" by itself 5 s before the turn ends; off the turn it
## answers after the vote's 20 s. The real vote dialog (a Modal) with SurrenderVoteAsk, on a turn
## clock and a time the test sets (no waiting on the wall clock). Online the session's invariants
## check the same on every frame (SessionInvariants' vote_clock rule, in the chaos tour).

var _left := -1.0
var _now := 100.0


func _asker() -> SurrenderVoteAsk:
	var modal := Modal.create()
	add_child(modal)
	var ask := SurrenderVoteAsk.new(modal, func() -> float: return _left)
	ask.now_s = func() -> float: return _now
	add_child(ask)
	return ask


## Asks and collects the answer into `answers` when the dialog closes.
func _ask(ask: SurrenderVoteAsk, answers: Array) -> void:
	var choice: StringName = await ask.ask("ONLINE_SURRENDER_PARTNER_TITLE", "Ann proposes to surrender.",
		[[&"yes", "ONLINE_VOTE_YES"], [&"no", "ONLINE_VOTE_NO"]])
	answers.append(choice)


func _keep_text(ask: SurrenderVoteAsk) -> String:
	var b := ask.modal.button(&"no")
	return b.text if b != null else ""


func _lines(ask: SurrenderVoteAsk) -> PackedStringArray:
	var out := PackedStringArray()
	for c in ask.modal.get_node(^"%Lines").get_children():
		if c is Label and (c as Label).visible and not c.is_queued_for_deletion():
			out.append((c as Label).text)
	return out


func test_a_vote_on_the_players_turn_shows_the_clock_and_keeps_playing_5_s_before_it_ends() -> void:
	_left = 12.0
	_now = 100.0
	var ask := _asker()
	var answers: Array = []
	_ask(ask, answers)
	await frames(1)
	expect(ask.modal.is_open(), "the dialog is open")
	expect(ask.shows_clock(), "it shows the player's turn clock")
	var clock_line := tr("PAUSE_CLOCK_LEFT_FMT").format({s = 12})
	expect(clock_line in _lines(ask), "the clock's line says 12 s: %s" % _lines(ask))
	expect(_keep_text(ask).ends_with("(7)"), "'keep playing' counts down to 5 s before the turn ends: %s" % _keep_text(ask))
	# The turn's clock runs on behind the dialog: the line follows it.
	_left = 8.4
	_now = 103.6
	await frames(2)
	expect_eq(ask.shown_seconds(), 9, "the clock's line follows the turn's clock")
	expect(tr("PAUSE_CLOCK_LEFT_FMT").format({s = 9}) in _lines(ask), "and says so: %s" % _lines(ask))
	expect(_keep_text(ask).ends_with("(4)"), "the button too: %s" % _keep_text(ask))
	_left = 5.1
	_now = 106.9
	await frames(2)
	expect(ask.modal.is_open() and answers.is_empty(), "still asked with 5.1 s left")
	_left = 4.95
	_now = 107.05
	await frames(2)
	expect_eq(answers, [&"no"], "answered 'keep playing' 5 s before the turn ends")
	expect(not ask.modal.is_open(), "the dialog is gone: the player has 5 s for the turn")
	ask.modal.queue_free()
	ask.queue_free()


func test_a_vote_off_the_turn_answers_after_20_s_and_takes_the_players_answer() -> void:
	_left = -1.0
	_now = 100.0
	var ask := _asker()
	var answers: Array = []
	_ask(ask, answers)
	await frames(1)
	expect(not ask.shows_clock(), "no turn clock to show")
	expect_eq(_lines(ask), PackedStringArray(["Ann proposes to surrender."]), "no clock line")
	expect(_keep_text(ask).ends_with("(20)"), "'keep playing' counts the vote's 20 s: %s" % _keep_text(ask))
	_now = 119.9
	await frames(2)
	expect(answers.is_empty(), "still asked after 19.9 s")
	_now = 120.05
	await frames(2)
	expect_eq(answers, [&"no"], "unanswered after 20 s: 'keep playing'")
	# The player's own answer is the answer.
	_now = 200.0
	_ask(ask, answers)
	await frames(1)
	ask.modal.press(&"yes")
	await frames(1)
	expect_eq(answers, [&"no", &"yes"], "the player's answer")
	ask.modal.queue_free()
	ask.queue_free()


func test_the_turn_coming_while_a_vote_is_open_brings_its_clock() -> void:
	_left = -1.0
	_now = 100.0
	var ask := _asker()
	var answers: Array = []
	_ask(ask, answers)
	await frames(1)
	# Ten seconds in, the player's turn starts with a 12 s clock: 7 s until the answer, not 10.
	_now = 110.0
	_left = 12.0
	await frames(2)
	expect(ask.shows_clock() and ask.shown_seconds() == 12, "the clock came into the dialog (%d)" % ask.shown_seconds())
	expect(_keep_text(ask).ends_with("(7)"), "the answer comes 5 s before the turn ends: %s" % _keep_text(ask))
	_now = 117.1
	_left = 4.9
	await frames(2)
	expect_eq(answers, [&"no"], "answered 'keep playing' with 4.9 s left")
	ask.modal.queue_free()
	ask.queue_free()


func test_a_vote_asked_with_under_5_s_on_the_turn_leaves_the_turn_alone() -> void:
	_left = 3.5
	_now = 100.0
	var ask := _asker()
	var answers: Array = []
	_ask(ask, answers)
	await frames(1)
	expect_eq(answers, [&"no"], "'keep playing' at once")
	expect(not ask.modal.is_open(), "no dialog over the turn's last seconds")
	ask.modal.queue_free()
	ask.queue_free()
