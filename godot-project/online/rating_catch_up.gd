class_name RatingCatchUp
extends RefCounted
## A ranked match's rating for a player who missed the server's word on it (cut at the match's
## end and back only after the room closed: the server sends `rating` once, to the room). The
## player's profile names each rated match by its room and number: the latest point of this
## room under these rules is the match the table shows.

## Called once with (rules, rating, change) when the profile holds the match's point.
var _found: Callable
var _rules := ""
var _room := ""


## The latest point (highest match number) `profile` holds for `room` under `rules`; null when
## it holds none (an older server names no match).
static func point_for(profile: PlayerProfile, rules: String, room: String) -> RatingPoint:
	if profile == null or room == "":
		return null
	var best: RatingPoint = null
	for r: Rating in profile.ratings:
		if String(r.rules) != rules:
			continue
		for p: RatingPoint in r.history:
			if String(p.room) == room and (best == null or p.match_no >= best.match_no):
				best = p
	return best


## Asks the server (the session's client) for the player's own profile; `found` is called if it
## holds the match. Returns the request's code (0: asked).
func ask(rules: String, room: String, found: Callable) -> int:
	var client: Node = Online.client
	_rules = rules
	_room = room
	_found = found
	if not client.profile_received.is_connected(_on_profile):
		client.profile_received.connect(_on_profile)
	return client.fetch_profile("")


func _on_profile(profile: PlayerProfile) -> void:
	var client: Node = Online.client
	if String(profile.player_id) != String(client.get_player_id()):
		return  # someone else's profile, asked by another screen
	client.profile_received.disconnect(_on_profile)
	var p := point_for(profile, _rules, _room)
	if p != null and _found.is_valid():
		_found.call(_rules, p.rating, p.change)
