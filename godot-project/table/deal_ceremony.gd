class_name DealCeremony
extends RefCounted
## The end of a deal on the table itself, not in a box (issue 39): each seat, in finishing order,
## wears its medal at its seat and its portrait steps forward toward the felt's centre and back;
## the cards the others still held lie face up in front of them; then the level tiles on the
## plaque flip from the old levels to the new. Timings from the table's pacing profile; without
## animations, or in low-performance mode, the medals, cards and levels simply stand.


## Plays the ceremony for `order` (seats in finishing order), the teams' levels `before` (the
## plaque already holds the new ones) and the cards left `left` (per seat; the cards of a seat
## whose hand is on screen stay there). Returns the seconds until the next-deal buttons.
static func play(table: Table, order: PackedInt32Array, before: PackedInt32Array, left: Array) -> float:
	var t := timings(table.pacing)
	var step := t.x
	var flip := t.y
	var centre: Vector2 = table.zone.get_global_rect().get_center()
	var badges: Array[SeatBadge] = table.badges
	for i in order.size():
		var badge: SeatBadge = badges[order[i]]
		badge.place = i + 1
		badge.step_forward(step * i, step, centre)
	_lay_down(table, left)
	var wait := step * order.size()
	(table.plaque as LevelPlaque).flip_from(before, wait, flip)
	return wait + flip if flip > 0.0 else wait


## Where the ceremony's card stands (global): on the felt from the prompt row down to the action
## buttons' foot (higher when the card needs it), clear of the player's own portrait on the left
## (and as far from the right edge, or from the history's column when it is open).
static func card_rect(table: Table) -> Rect2:
	var view := table.get_global_rect()
	var bar: Rect2 = table.action_bar.get_global_rect()
	var top := view.position.y + table.prompt_rect.position.y
	var me := (table.badges[0] as SeatBadge).get_global_rect()
	var side := clampf(me.end.x + 8.0 - view.position.x, 0.0, view.size.x * 0.3)
	var left := view.position.x + side
	var right := view.end.x - side
	if table.sidebar.is_visible_in_tree():
		# The history's column on the right: the card keeps to the felt left of it.
		right = minf(right, table.sidebar.get_global_rect().position.x - 8.0)
	var bottom := maxf(bar.end.y, top + 1.0)
	# A card taller than that grows up over the felt's centre, never down over the hand.
	top = minf(top, bottom - table.modal.panel.get_combined_minimum_size().y)
	return Rect2(left, top, maxf(right - left, 1.0), bottom - top)


## Seconds of each finisher's step and of the tiles' flip now: the pacing's, scaled by the
## animation speed; none without animations or in low-performance mode.
static func timings(pacing: PacingProfile) -> Vector2:
	if not Settings.effects_on():
		return Vector2.ZERO
	return Vector2(PacingProfile.scaled(pacing.ceremony_medal_s), PacingProfile.scaled(pacing.ceremony_flip_s))


## The last trick leaves the felt; each seat that did not go out lays its cards face up in front
## of it (its play's place), all equally bright.
static func _lay_down(table: Table, left: Array) -> void:
	var zone: PlayZone = table.zone
	zone.reset()
	var in_hand := {}
	for id in (table.hand as HandView).cards():
		in_hand[id] = true
	var laid: Array[int] = []
	for seat in mini(left.size(), 4):
		var ids := PackedInt32Array(left[seat])
		# Only seats still in the deal (the record's hands are not always the last ones for those out).
		if table.places[seat] > 0 or ids.is_empty() or in_hand.has(ids[0]):
			continue
		zone.show_play(seat, ids, (table.badges[seat] as SeatBadge).card_anchor(), [], table.level)
		laid.append(seat)
	for seat in laid:
		for id in zone.shown(seat):
			var v: CardView = table.layer.find_view(id)
			if v != null:
				v.modulate = Color.WHITE
