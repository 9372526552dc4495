class_name DealEndHands
extends RefCounted
## The cards each seat still held when a deal ended (for the end-of-deal panel). The engine has
## moved on to the next deal by the time the table shows the end of this one, so the match so far
## is replayed in Rust to the last position of that deal.


## Seat -> the ids it held at the end of deal `deal_no` of `engine`'s match (a seat that went out
## holds none); [] when the match has no such deal or is followed online.
static func of(engine: GuandanEngine, deal_no: int) -> Array:
	# Online the client holds its own view only, not the record to replay.
	if not engine.is_recorded():
		return []
	var rec := ReplayRecorder.new()
	if rec.record(engine) != GuandanEngine.OK:
		return []
	for n in range(rec.get_action_count(), -1, -1):
		rec.seek(n)
		var st: MatchState = rec.get_state()
		if st.deal_no == deal_no:
			return _after(Array(st.hands), rec.get_action(n) if n < rec.get_action_count() else null)
		if st.deal_no < deal_no:
			break
	return []


## `hands` without the cards of `last`, the deal's last action: the play that ended it (the
## position after that play is already the next deal's; issue 53: the panel showed the last
## player still holding the cards they went out with).
static func _after(hands: Array, last: RecordedAction) -> Array:
	if last == null or last.kind != "play":
		return hands
	var seat := last.seat
	if seat < 0 or seat >= hands.size():
		return hands
	var left := PackedInt32Array()
	var gone := last.cards
	for id: int in hands[seat]:
		if not gone.has(id):
			left.append(id)
	var out := hands.duplicate()
	out[seat] = left
	return out
