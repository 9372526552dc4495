extends "res://tests_godot/online/online_tour.gd"
## Two people as partners online, the game not in the room's seat 0 (tools/test-online runs it
## headless against its real guandan-server): the game creates a room, moves to seat 2, and a
## second GuandanClient in this process (the partner) joins seat 0; AI in seats 1 and 3. The
## table draws the game's seat south, so every seat the engine reports is turned: the surrender
## vote must still ask the right person. Checks:
## - the partner proposes to give up: the game is asked as the partner (agree / keep playing),
##   says no, and the match goes on;
## - the game proposes: a line over its table says it waits for its partner (the AI opponents
##   accept at once: the line must not move on); the partner is asked and says no; the game is
##   told so and the line goes.
##
## Args after `--`: --server HOST:PORT [--locale en|zh_CN]. Exit code 0 = every check held.

## What the partner's engine heard: [[seat, accept], …] votes and proposing seats.
var _partner_votes: Array = []
var _partner_proposals: Array[int] = []


func _complete(ok: bool) -> bool:
	if ok:
		print("e2e_pair: ok")
	return ok


func _run() -> bool:
	var menu: Control = await _online_menu("Ann")
	if menu == null:
		return false
	if not await _create_room(menu):
		return false
	var c: Node = Online.client
	# The game moves to seat 2, the AI takes 1 and 3: the partner's join finds seat 0 free.
	c.change_seat(2)
	if not await _until(func() -> bool: return Online.seat == 2, 10.0):
		return _fail("the game did not move to seat 2")
	c.set_seat(1, 1)
	c.set_seat(3, 1)
	if not await _until(func() -> bool: return int(c.get_room().seats[1].ai) == 1 and int(c.get_room().seats[3].ai) == 1, 10.0):
		return _fail("seats 1 and 3 not filled")
	if not await _partner_online("Bob"):
		return _fail("partner offline")
	_partner_match.surrender_voted.connect(func(seat: int, accept: bool) -> void: _partner_votes.append([seat, accept]))
	_partner_match.surrender_proposed.connect(func(seat: int) -> void: _partner_proposals.append(seat))
	_partner.join_room(c.get_room_code())
	if not await _until(func() -> bool: return String(c.get_room().seats[0].player) == "Bob", 10.0):
		return _fail("the partner did not sit in seat 0")
	var ot: Control = await _start_with_partner(0, 2)
	if ot == null:
		return false
	if not await _play_until(func() -> bool: return ot.table.controller.action_count() >= 8, 90.0, ot):
		return _fail("the match did not go on")
	# The partner proposes; the game must be asked as the partner.
	if not await _propose(func() -> int: return _partner_match.propose_surrender(),
			func() -> bool: return ot.votes.is_open(), ot):
		return _fail("the partner's proposal never asked the game")
	var asked: String = (ot.votes.find_child("Title", true, false) as Label).text
	if asked != tr("ONLINE_SURRENDER_PARTNER_TITLE"):
		return _fail("the game was asked %s, not as the partner" % asked)
	ot.votes.press(&"no")
	if not await _play_until(func() -> bool: return _partner_votes.has([2, false]), 10.0, ot):
		return _fail("the partner never heard the game's answer: %s" % [_partner_votes])
	await _play_until(func() -> bool: return false, 2.0, ot)
	if ot.table.match_over:
		return _fail("the match ended although the game refused to give up")
	# The game proposes: it is told it waits; the partner is asked, refuses, and the game hears it.
	var waiting := tr("ONLINE_SURRENDER_WAITING")
	var proposals_before := _partner_proposals.size()
	if not await _propose(func() -> int: return ot.table.controller.propose_surrender(),
			func() -> bool: return _partner_proposals.size() > proposals_before, ot):
		return _fail("the game's proposal never reached the partner")
	if _partner_proposals[-1] != 2:
		return _fail("the partner heard a proposal from seat %d, not 2" % _partner_proposals[-1])
	if not await _play_until(func() -> bool: return ot.vote_status.visible and ot.vote_status.text == waiting, 5.0, ot):
		return _fail("the game was not told it waits for its partner (%s)" % ot.vote_status.text)
	if _partner_match.surrender_vote(false) != 0:
		return _fail("the partner could not answer")
	var refused := tr("ONLINE_SURRENDER_REFUSED_FMT").format({seat = "Bob"})
	if not await _play_until(func() -> bool: return ot.table.toast_label.text == refused, 10.0, ot):
		return _fail("the game was not told its partner refused (toast: %s)" % ot.table.toast_label.text)
	if ot.vote_status.visible:
		return _fail("the vote's line stayed after the vote closed")
	if ot.table.match_over:
		return _fail("the match ended although the partner refused")
	return true


## Proposes (one intent at a time, and a proposal for a position that moved on is refused: try
## again) until `heard` holds.
func _propose(propose: Callable, heard: Callable, ot: Control) -> bool:
	for attempt in 30:
		if heard.call():
			return true
		if propose.call() == 0 and await _play_until(heard, 5.0, ot):
			return true
		await _play_until(func() -> bool: return false, 0.3, ot)
	return false
