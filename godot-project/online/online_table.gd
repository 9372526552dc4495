extends Control
## The table online: the same table scene (its MatchController takes the session's client, see
## MatchConfig.online), plus what only online play has, drawn over it —
## every seat's name (a person's nickname, under the seat's portrait: the badge's title); the latency; while the connection is down an overlay "reconnecting…" that
## blocks all input, until the client is back and the whole position has been announced again
## (the table rebuilds hand, centre and scores from the full state); the server's AI hosting a
## seat (the seat badge blinks with "AI Auto-Play"); surrender votes as dialogs (the partner's
## consent, the opponents' veto); for a spectator a banner "N rounds behind", and when the room's
## host lets spectators see one team's hands, those two hands small and face up above it (rebuilt
## as the match moves on, from the controller's shown_hand); "play again" goes
## back to the lobby. If the room closes or the connection is gone for good, the Online menu
## says why.

## The table scene inside (tests, screenshots); instanced here when there is a match to show.
var table: Table
@onready var latency: Label = %Latency
## The table's menu button (top left), which the latency reading stands under.
var _menu_button: Control
## The blocking "reconnecting…" layer.
@onready var reconnect_layer: Control = %Reconnecting
@onready var spectator_banner: Label = %SpectatorBanner
@onready var votes: Modal = %SurrenderVote
## The proposing team's line while its surrender vote is open ("waiting for your partner…").
@onready var vote_status: Label = %VoteStatus

var _params := {}
@onready var _reconnect_text: Label = %ReconnectingText
var _leaving := false
## The rating line of a ranked match's end (shown on the result's panel), and whether that panel
## is up.
var _rating_line := ""
var _result_shown := false
## The room closed while the player still had its match's end to see or was reading it: said on
## the result's panel, which stays until the player leaves it.
var _closed_text := ""
## The room shown (its code and rules) and whether it is ranked (a quick match's), kept past
## the room's close (the rating's catch-up, the end's "Find another table").
var _room_code := ""
var _room_rules := ""
var _ranked := false
var _catch_up: RatingCatchUp
## The table's own checks (Online.check_invariants: tests, the chaos tour), or null.
var invariants: SessionInvariants
## The hands a spectator is shown (one CardsLeftRow per seat), and the action count they show.
var _shown_hands: VBoxContainer
var _shown_at := -1
## Each table seat's nickname ("" for an AI seat), from the room.
var _nicks: Array[String] = ["", "", "", ""]
## When the connection turned unstable (ticks, ms; -1 steady), and whether the reconnect layer
## is up for that stall rather than for a lost connection.
var _unstable_since := -1
var _stall_layer := false
## An unstable connection this long covers the table ("the server is not answering"): with
## the 1.5 s a heartbeat may wait and up to 2.5 s until one goes, 6.5-9 s of silence.
const STALLED_MS := 5000
## The open surrender vote as this table saw it: {proposer, answers: {seat: accept}}, {} if none.
var _vote := {}
## Asks this player's surrender votes in `votes`, with the turn's clock when it runs.
var vote_ask: SurrenderVoteAsk
## The vote dialog's close when the vote ended without this player's answer.
const CLOSED_BY_VOTE := &"closed"


func open(params: Dictionary) -> void:
	_params = params


func _ready() -> void:
	var c: Node = Online.client
	if c.get_connection_state() != "offline" and Online.quick_rules != "" and c.get_room_code() == "" \
			and not c.has_match():
		# "Find another table" read after the quick match's room closed (played in windows: it
		# said "the server cannot be reached"): into the queue again.
		_leaving = true
		_queue_again.call_deferred()
		return
	if c.get_connection_state() == "offline" or not c.has_match() and not Online.room_in_game():
		# No match to show (never a half-built table): back to the Online menu.
		_gone_back.call_deferred(Online.error_text(Online.io_error()))
		return
	if Online.room_match_over() and Online.in_quick_room():
		# "Find another table" at a quick match's end: out of this table, into the queue again.
		_leaving = true
		_queue_again.call_deferred()
		return
	if Online.room_match_over():
		# "Play again" from the end-of-match panel: say yes to a rematch (while the room still
		# votes), back to the lobby.
		c.rematch(true)
		_leaving = true
		EventBus.screen_requested.emit.call_deferred(&"lobby")
		return
	table = load("res://table/table.tscn").instantiate()
	table.open(_params if not _params.is_empty() else {config = Online.table_config()})
	add_child(table)
	move_child(table, 0)  # under the overlay: drawn first, and the reconnect layer takes input first
	_set_up_overlay()
	c.reconnecting.connect(_on_reconnecting)
	c.resynced.connect(_on_resynced)
	# Methods, not lambdas: the client outlives this screen, and a method's connection goes with it.
	c.connected.connect(_on_connected)
	c.disconnected.connect(_on_disconnected)
	c.room_closed.connect(_on_room_closed)
	c.room_changed.connect(_on_room)
	c.hosting_changed.connect(_on_hosting)
	c.latency_changed.connect(_on_latency)
	c.connection_unstable.connect(_on_unstable)
	c.rating_changed.connect(_on_rating)
	table.match_panel_shown.connect(_on_match_panel)
	# The match's own events come from the table's controller (its engine follows the client), as
	# they arrive, not when the table gets to show them.
	table.controller.event_received.connect(_on_match_event)
	resized.connect(_place_overlay)
	# The table's Auto-play switch hands our seat to the server's AI (auto_play) and takes it
	# back; the table shows it through controller_changed like offline. Spectators have no seat.
	if table.auto_button != null:
		table.auto_button.visible = not c.is_spectator()
	_on_room(c.get_room())
	vote_ask = SurrenderVoteAsk.new(votes, _own_clock_left)
	add_child(vote_ask)
	if Online.check_invariants:
		invariants = SessionInvariants.new(table, func() -> bool: return reconnect_layer.visible)
		invariants.vote_ask = vote_ask
		add_child(invariants)
	if c.get_connection_state() == "reconnecting":
		_on_reconnecting(1)


func _on_connected(_player_id: String) -> void:
	_reconnect_text.text = tr("ONLINE_RESYNCING")


func _on_disconnected(code: int, _message: String) -> void:
	_gone_back(Online.error_text(code))


func _set_up_overlay() -> void:
	_lost_hint()
	%LeaveWhileReconnecting.pressed.connect(func() -> void: _gone_back(""))


## The reconnect layer's hint for a lost connection (a spectator has no seat to keep).
func _lost_hint() -> void:
	(%ReconnectingHint as Label).text = "ONLINE_RECONNECTING_HINT_SPECTATOR" if Online.client.is_spectator() \
		else "ONLINE_RECONNECTING_HINT"


func _process(_delta: float) -> void:
	if table != null:
		_place_overlay()
		_draw_shown_hands()
	# A server silent for long: the table is covered as for a lost connection, saying so.
	if _unstable_since >= 0 and not reconnect_layer.visible and Time.get_ticks_msec() - _unstable_since >= STALLED_MS:
		_stall_layer = true
		reconnect_layer.visible = true
		_reconnect_text.text = tr("ONLINE_STALLED")
		(%ReconnectingHint as Label).text = "ONLINE_STALLED_HINT"


## The server left a heartbeat unanswered (a stalled server, a broken network): the latency
## turns into a warning at once; STALLED_MS later the table is covered. Both go when it answers.
func _on_unstable(unstable: bool) -> void:
	if unstable:
		_unstable_since = Time.get_ticks_msec()
		latency.text = tr("ONLINE_UNSTABLE")
		latency.add_theme_color_override(&"font_color", Color(1, 0.5, 0.4))
		return
	_unstable_since = -1
	if latency.text == tr("ONLINE_UNSTABLE"):
		latency.text = ""  # the next heartbeat's round trip fills it
	if _stall_layer:
		_stall_layer = false
		reconnect_layer.visible = false
		_lost_hint()


## A spectator's shown hands, rebuilt when the match has moved on (they change only with actions
## and full states; a full state of the same point shows the same hands).
func _draw_shown_hands() -> void:
	var controller: MatchController = table.controller
	if not Online.client.is_spectator() or controller == null:
		return
	var at: int = controller.action_count() if controller.has_match() else -1
	if at == _shown_at:
		return
	_shown_at = at
	if _shown_hands == null:
		_shown_hands = VBoxContainer.new()
		_shown_hands.name = "ShownHands"
		_shown_hands.z_index = 400
		_shown_hands.mouse_filter = Control.MOUSE_FILTER_IGNORE
		add_child(_shown_hands)
		_shown_hands.set_anchors_and_offsets_preset(Control.PRESET_CENTER_BOTTOM, Control.PRESET_MODE_MINSIZE, 56)
		_shown_hands.grow_horizontal = Control.GROW_DIRECTION_BOTH
		_shown_hands.grow_vertical = Control.GROW_DIRECTION_BEGIN
	for row in _shown_hands.get_children():
		_shown_hands.remove_child(row)
		row.queue_free()
	for seat in 4:
		var ids: PackedInt32Array = controller.shown_hand(seat) if at >= 0 else PackedInt32Array()
		if not ids.is_empty():
			var who := Wording.seat_name(seat, table.local_seat, true)
			_shown_hands.add_child(CardsLeftRow.create(seat, who, ids, controller.level()))
	_shown_hands.visible = _shown_hands.get_child_count() > 0


## The latency under the menu button and the vote's line over the player's seat.
func _place_overlay() -> void:
	if table == null or table.badges.size() < 4:
		return
	# The latency under the table's menu button, never inside it (a phone raises the button to
	# its 80 lp tap floor: the reading's fixed place was then on the button).
	if _menu_button == null:
		_menu_button = table.find_child("MenuButton", true, false) as Control
	if _menu_button != null and _menu_button.is_visible_in_tree():
		var m := _menu_button.get_global_rect()
		latency.position = Vector2(m.position.x, m.end.y + 2.0) - global_position
	# The vote's line over the player's own seat (the left column is free there; beside the
	# partner's badge it would cover the partner's play).
	if vote_status.visible:
		var own: Rect2 = (table.badges[0] as SeatBadge).get_global_rect()
		vote_status.position = own.position - global_position + Vector2(4, -vote_status.size.y - 4)


func _on_room(room: OnlineRoom) -> void:
	if room == null:
		return
	if String(room.code) != _room_code:
		_room_code = String(room.code)
		_ranked = false
	_room_rules = String(room.rules)
	_ranked = _ranked or Online.in_quick_room()
	if reconnect_layer.visible and room.state in ["idle", "waiting", "ready_check"] \
			and not table.match_over:
		# Back after the match ended and its vote closed: the room is a lobby again. Say so there.
		_leaving = true
		Online.lobby_message = tr("ONLINE_MATCH_ENDED_WHILE_AWAY")
		EventBus.screen_requested.emit(&"lobby")
		return
	if table != null and table.match_over and not Online.client.is_spectator() \
			and room.state in ["idle", "waiting", "ready_check", "destroyed"]:
		# The vote to play again closed while the result was shown and "Play again" was not
		# chosen: the server gave the seat up (and closed the room if nobody stayed). The result
		# stays until the player leaves it (issue 52); its panel says so.
		if _closed_text == "":
			_closed_text = tr("ONLINE_REMATCH_MISSED")
			if _result_shown:
				table.modal.add_line(_closed_text)
		return
	var me := Online.seat
	# People by their nickname under their portrait, one name a seat (issue 54: the names stood
	# over the badges, the player's own over "You"); an AI seat's badge says where it sits and its
	# level. While the room's seat list catches up, the player's own is the name we play under.
	SeatKinds.show_names(table.badges, SeatKinds.names_from_room(room, me, String(Settings.get_value(&"online_nickname")),
		tr("ONLINE_AWAY_MARK")), maxi(me, 0), Online.name_font())
	for s: RoomSeat in room.seats:
		var i := s.seat
		# The table draws the viewer at the bottom: seats are turned so the local seat is south.
		var at := (i - maxi(me, 0) + 4) % 4
		_nicks[at] = s.player
		# The player's own mark follows their own switch (show_auto_play): a room update another
		# seat caused must not clear it (played in windows: the partner's Auto-play did).
		if i != me:
			table.badges[at].auto_play = s.hosted
	SeatKinds.show(table.badges, SeatKinds.from_room(room), maxi(me, 0))
	# A spectator's badges name the seats by the compass (the badges know they are watched).
	var spectating: bool = Online.client.is_spectator()
	spectator_banner.visible = spectating
	if spectating:
		spectator_banner.text = tr("ONLINE_SPECTATOR_BANNER_FMT").format({n = room.spectator_delay})
	_place_overlay()


func _on_hosting(seat: int, on: bool) -> void:
	var me := Online.seat
	var at := (seat - maxi(me, 0) + 4) % 4
	if seat == me:
		# Away, the overlay covers the table and says so; present (we handed the seat over), the
		# table's controller_changed shows the badge and the Auto-play switch takes it back.
		if reconnect_layer.visible:
			_reconnect_text.text = tr("ONLINE_HOSTED_WHILE_AWAY") if on else tr("ONLINE_RESYNCING")
		return
	table.badges[at].auto_play = on


## After a ranked match: the player's new rating and its change, on the result's panel (the
## server may say it before the table has shown the match's end: then when the panel opens).
func _on_rating(_rules: String, rating: int, change: int, _matches: int) -> void:
	_rating_line = tr("ONLINE_RATING_FMT").format({rating = rating,
		change = ("+%d" % change) if change >= 0 else str(change)})
	if _result_shown:
		table.modal.add_line(_rating_line)


func _on_match_panel(_event: MatchEndedEvent) -> void:
	_result_shown = true
	# A vote still asked when the match ended (it was accepted without this player) is over.
	if votes.is_open():
		votes.press(CLOSED_BY_VOTE)
	_vote = {}
	vote_status.visible = false
	var again: Button = table.modal.button(&"again")
	if again != null and (_ranked or Online.in_quick_room()):
		again.text = tr("QUICK_AGAIN")
	if _rating_line != "":
		table.modal.add_line(_rating_line)
	if _closed_text != "":
		table.modal.add_line(_closed_text)


func _on_latency(ms: float) -> void:
	latency.text = tr("ONLINE_LATENCY_FMT").format({ms = int(round(ms))})
	latency.add_theme_color_override(&"font_color",
		Color(0.75, 1, 0.8) if ms < 150.0 else Color(1, 0.85, 0.4) if ms < 400.0 else Color(1, 0.5, 0.4))


func _on_reconnecting(_attempt: int) -> void:
	_unstable_since = -1
	_stall_layer = false
	_lost_hint()
	reconnect_layer.visible = true
	_reconnect_text.text = tr("ONLINE_RECONNECTING")
	latency.text = ""


## Back with the whole position: the table rebuilds from it (the announcement follows this
## signal); the layer goes once the table has drawn it.
func _on_resynced(_seq: int) -> void:
	if not reconnect_layer.visible:
		return
	_reconnect_text.text = tr("ONLINE_RESYNCING")
	# Until the table has drawn the announced position, or a panel there waits for the player
	# (which the layer must not cover); a few seconds at most.
	var until := Time.get_ticks_msec() + 5000
	await get_tree().process_frame
	while is_inside_tree() and table != null and table.events.busy() and not table.modal.is_open() \
			and Time.get_ticks_msec() < until:
		await get_tree().process_frame
	if is_inside_tree():
		reconnect_layer.visible = false
		# The full state holds the current trick only: say the history starts here.
		if table != null:
			table.history.add_note(tr("ONLINE_HISTORY_EARLIER_HIDDEN"))


func _on_match_event(event: MatchEvent) -> void:
	if event is SurrenderProposedEvent:
		_on_surrender_proposed((event as SurrenderProposedEvent).seat)
	elif event is SurrenderVotedEvent:
		var vote := event as SurrenderVotedEvent
		_on_surrender_voted(vote.seat, vote.accept)


## A surrender proposal (`seat` is a table seat, like every seat the engine's signals carry: 0 is
## the viewer). The proposer's team reads the vote's course in a line over the table while it is
## open; the partner and the opponents are asked, on a clock (an unanswered vote is "keep
## playing").
func _on_surrender_proposed(seat: int) -> void:
	if table == null or table.match_over or Online.client.is_spectator():
		return
	var me: int = table.local_seat
	_vote = {proposer = seat, answers = {}}
	_show_vote()
	# The proposer waits; a seat the server's AI plays (auto-play, or away) is answered by the
	# AI as the room's rule says, so its player is not asked.
	if seat == me or table.controller.is_auto_play():
		return
	var partner := seat % 2 == me % 2
	var title := tr("ONLINE_SURRENDER_PARTNER_TITLE") if partner else tr("ONLINE_SURRENDER_OPPONENT_TITLE")
	var text := tr("ONLINE_SURRENDER_PARTNER_FMT" if partner else "ONLINE_SURRENDER_OPPONENT_FMT").format(
		{seat = _who(seat)})
	# The player's own clock runs on behind the dialog (the server's does): asked on the player's
	# turn, the dialog shows it and answers "keep playing" before it ends (SurrenderVoteAsk).
	var choice: StringName = await vote_ask.ask(title, text, [[&"yes", "ONLINE_VOTE_YES" if partner else "ONLINE_VOTE_ACCEPT"],
		[&"no", "ONLINE_VOTE_NO" if partner else "ONLINE_VOTE_VETO"]])
	if not is_inside_tree() or choice == CLOSED_BY_VOTE:
		return
	# Our own action may still be on its way (one intent at a time): try again for a moment.
	var code: int = table.controller.surrender_vote(choice == &"yes")
	for i in 20:
		if code == 0 or not is_inside_tree() or not table.controller.has_match():
			break
		await get_tree().create_timer(0.15).timeout
		code = table.controller.surrender_vote(choice == &"yes")
	if code != 0 and is_inside_tree():
		table.show_error(code)


## Seconds left on the player's own turn clock as the table shows it; -1.0 when none runs.
func _own_clock_left() -> float:
	if table == null or not (table.my_countdown as Control).visible or not table.controller.has_match():
		return -1.0
	return table.controller.time_left()


## Someone answered the open proposal. A refusal by the proposer's own team closes the vote (an
## opponent still asked is asked no more), and so does the second opponent's; the voter's own
## team is told a refusal.
func _on_surrender_voted(seat: int, accept: bool) -> void:
	if table == null or table.match_over or _vote.is_empty():
		return
	var team := int(_vote.proposer) % 2
	_vote.answers[seat] = accept
	var opponents_refused := 0
	for s: int in _vote.answers:
		opponents_refused += int(s % 2 != team and not _vote.answers[s])
	var closed := not accept and (seat % 2 == team or opponents_refused == 2)
	if closed:
		if votes.is_open():
			votes.press(CLOSED_BY_VOTE)
		_vote = {}
		if seat != table.local_seat and table.local_seat % 2 == team:
			var key := "ONLINE_SURRENDER_REFUSED_FMT" if seat % 2 == team else "ONLINE_SURRENDER_VETOED_FMT"
			table.toast(tr(key).format({seat = _who(seat)}))
	_show_vote()


## The proposing team's line while its vote is open: who it waits for.
func _show_vote() -> void:
	var me: int = table.local_seat
	var open := not _vote.is_empty() and int(_vote.proposer) % 2 == me % 2
	vote_status.visible = open
	if not open:
		return
	var partner := (me + 2) % 4
	var waits_partner := not (_vote.answers as Dictionary).has(partner if int(_vote.proposer) == me else me)
	if int(_vote.proposer) == me:
		vote_status.text = tr("ONLINE_SURRENDER_WAITING" if waits_partner else "ONLINE_SURRENDER_WAITING_OPPONENTS")
	else:
		vote_status.text = tr("ONLINE_SURRENDER_PROPOSED_FMT").format({seat = _who(partner)}) if waits_partner \
			else tr("ONLINE_SURRENDER_WAITING_OPPONENTS")


## A seat's nickname (an AI seat's: where it sits), for the vote's texts.
func _who(seat: int) -> String:
	var nick := _nicks[seat]
	return nick if nick != "" else Wording.seat_name(seat, table.local_seat, Online.client.is_spectator())


## The room or the connection is gone: back to the Online menu, which says why.
## The room is gone (its host disbanded it): said in the player's language, not the server's.
func _on_room_closed(reason: String) -> void:
	var text := Online.room_closed_text(reason)
	# A player still behind the server (the match's end not shown yet) or reading the result
	# keeps the table: the result panel says the room has closed and its buttons leave (issue 52:
	# a quick match's end was replaced by "The host closed the room" before it was seen).
	if table != null and (table.match_over or table.events.busy()):
		_closed_text = text
		if _result_shown:
			table.modal.add_line(text)
		# Back after the room closed (the rejoin refused): the result, not "resyncing…", and
		# the rating the server said while the player was away (any other close comes after it).
		reconnect_layer.visible = false
		if reason == "away":
			_catch_up_rating()
		return
	_gone_back(text)


## A ranked match's rating not heard from the server (it is said once, to the room): read from
## the player's profile, which names the match by its room (a room that was not ranked has no
## point there: nothing is shown).
func _catch_up_rating() -> void:
	if _room_code == "" or _rating_line != "" or _catch_up != null or Online.client.is_spectator():
		return
	_catch_up = RatingCatchUp.new()
	_catch_up.ask(_room_rules, _room_code, _on_caught_up_rating)


func _on_caught_up_rating(rules: String, rating: int, change: int) -> void:
	if not is_inside_tree() or table == null or _rating_line != "":
		return
	_on_rating(rules, rating, change, 0)
	table.events.results.take_rating(rating, change)


## Leaves the quick match's finished table and waits for another of the same rules.
func _queue_again() -> void:
	Online.client.leave_room()
	Online.forget_room()
	var rc: int = await Online.enter(&"quick", Online.quick_rules)
	if rc != 0:
		Online.last_message = Online.error_text(rc)
		EventBus.screen_requested.emit(&"online")
		return
	EventBus.screen_requested.emit(&"quick_search")


func _gone_back(message: String) -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	Online.last_message = message
	if message == "":
		Online.client.leave_room()
		Online.forget_room()
	EventBus.screen_requested.emit(&"online")
