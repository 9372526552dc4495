class_name DealEndHands
extends RefCounted
## The cards each seat still held when a deal ended (for the end-of-deal panel). The engine has
## moved on to the next deal by the time the table shows the end of this one, so the match so far
## is replayed in Rust to the last position of that deal.


## Seat -> the ids it held at the end of deal `deal_no` of `engine`'s match (a seat that went out
## holds none); [] when the match has no such deal.
static func of(engine: GuandanEngine, deal_no: int) -> Array:
	var rec := ReplayRecorder.new()
	if rec.record(engine) != GuandanEngine.OK:
		return []
	for n in range(rec.get_action_count(), -1, -1):
		rec.seek(n)
		var st: Dictionary = rec.get_state()
		if int(st.get("deal_no", -1)) == deal_no:
			return Array(st.get("hands", []))
		if int(st.get("deal_no", -1)) < deal_no:
			break
	return []
