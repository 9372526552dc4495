class_name DealStartEvents
extends TableEventPart
## The start of a match and of each deal on the table: who the viewer is, the deal's banner and
## levels, the hand dealt into the table (backs flying to the other seats, the deal's sounds).

## How long the "Deal 2 · playing 3" banner holds.
const DEAL_BANNER_S := 0.9

## The next hand_changed is the deal's first: it is dealt in, with its flight.
var _fresh_deal := false
## A match or a position was just announced: the next deal_started takes the levels from the state.
var _levels_from_state := false
## Card backs flying to the other seats while a deal is dealt (made on first use).
var _deal_flight: DealFlight


func on_match_started(e: MatchStartedEvent) -> void:
	_levels_from_state = true
	table.local_seat = e.local_seat
	table.spectator = table.local_seat < 0
	table.match_over = false
	for b: SeatBadge in table.badges:
		b.spectator = table.spectator
	table.history.spectator = table.spectator
	table.history.local_seat = table.local_seat


func on_viewer_changed(e: ViewerChangedEvent) -> void:
	# Hot-seat: the engine now acts for (and shows the hand of) another human seat.
	table.local_seat = e.seat
	table.history.local_seat = table.local_seat


func on_deal_started(e: DealStartedEvent) -> void:
	table.deal_no = e.deal_no
	table.level = e.level
	table.declarer = e.declarer
	# The levels the last deal_ended left (online the live state may be deals ahead of the table:
	# issue 24, "Playing 5" shown for a deal played at 3); the state's when a match or a
	# position (resume, reconnect) was just announced.
	if _levels_from_state or instant:
		_levels_from_state = false
		var st: MatchState = table.controller.state()
		if st != null:
			table.team_levels = st.team_levels
	table.zone.reset()
	table.history.clear()
	table.tribute_panel.clear()
	table.places = PackedInt32Array([0, 0, 0, 0])
	table.table_play = null
	table.table_play_seat = -1
	# Nobody's turn until the first play of this deal is due (the last deal's turn is over).
	table.turn_seat = -1
	table.can_pass = false
	events.tribute.shown = false
	table.counts = PackedInt32Array([27, 27, 27, 27])
	for seat in 4:
		table.badges[seat].place = 0
		table.badges[seat].thinking = false
		table.badges[seat].active = false
	table.update_counts()
	table.hand.clear()
	table.hand.set_level(table.level)
	table.duty = &""
	_fresh_deal = true
	table.update_top_bar()
	announce(tr("DEAL_START_FMT").format({n = table.deal_no + 1, level = Cards.rank_label(table.level)}), DEAL_BANNER_S)
	if table.spectator:
		await _show_hand(table.controller.seat_hand(0))


func on_hand_changed(e: HandChangedEvent) -> void:
	await _show_hand(e.hand)


func _show_hand(ids: PackedInt32Array) -> void:
	if _fresh_deal and instant:
		_fresh_deal = false
		table.hand.set_cards(ids)
	elif _fresh_deal:
		_fresh_deal = false
		# A table that has just opened is laid out a frame or two after its first deal starts:
		# deal into the laid-out table (a layout mid-deal would put the flying cards down at once).
		for i in 10:
			if (table.middle as Rect2).size.x > 0.0:
				break
			# Through wait() (a frame): leaving the tree releases it at once, so no coroutine is
			# left waiting on the tree for a table that is gone.
			await wait(0.001)
			if closing:
				return
		var center: Vector2 = table.frame.global_position + table.middle.get_center()
		# Round the table: the player's card every fourth, backs to the other seats between.
		var gap := Settings.anim_time(table.pacing.deal_card_gap_s) if Settings.animations_on() else 0.0
		var backs := _deal_to_others(ids.size(), gap)
		var stagger := gap * (backs + 1)
		table.hand.set_cards(ids, center, stagger)
		var t := Settings.anim_time(table.pacing.deal_s) + stagger * ids.size()
		if backs > 0:
			t = maxf(t, _deal_flight.duration())
		_deal_sounds(ids.size())
		# The new deal (its banner, the dealt hand) is seen before anyone plays (issue 24: three
		# AI plays came within ~3 s of the table opening).
		await wait(maxf(t, PacingProfile.scaled(DEAL_BANNER_S + 0.2)))
		if closing:
			return
	else:
		table.hand.set_cards(ids)
	table.counts[0 if table.spectator else table.local_seat] = ids.size()
	table.update_counts()
	table.training.on_hand_changed()


## Backs flying to the seats other than the player's at the start of a deal; returns how many
## seats they go to (0 when animations are off, in low-performance mode or without a gap).
func _deal_to_others(rounds: int, gap: float) -> int:
	if gap <= 0.0 or Settings.get_value(&"low_perf"):
		return 0
	if _deal_flight == null:
		_deal_flight = DealFlight.new()
		_deal_flight.name = "DealFlight"
		_deal_flight.z_index = 300
		table.add_child(_deal_flight)
	_deal_flight.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var flight := _deal_flight
	var from := func() -> Vector2:
		return flight.get_global_transform().affine_inverse() * (table.frame.global_position + table.middle.get_center())
	var targets: Array[Callable] = []
	for k in range(1, 4):
		var seat: int = (table.local_seat + k) % 4
		targets.append(func() -> Vector2: return flight.get_global_transform().affine_inverse() * table.seat_anchor(seat))
	_deal_flight.begin(from, targets, rounds, gap, 4, table.zone.card_size() * 0.8, table.pacing.flight_arc)
	return targets.size()


func _deal_sounds(n: int) -> void:
	if not Settings.animations_on():
		Sfx.play(&"deal")
		return
	# A hand of under 3 cards (a rebuild mid-deal) gets one sound: an empty tween errors.
	if n < 3:
		Sfx.play(&"deal")
		return
	var tw := events.create_tween()
	for i in mini(n / 3, 9):
		tw.tween_callback(Sfx.play.bind(&"deal", randf_range(0.9, 1.1)))
		tw.tween_interval(0.05)
