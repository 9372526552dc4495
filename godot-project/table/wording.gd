class_name Wording
extends RefCounted
## The table's sentences about a seat, worded for who reads them: the player's own seat gets its
## own sentence ("You go out", "West gives you ♥A") instead of a seat name dropped into a
## third-person template ("You goes out", "gives You"). `local` is the seat the player sits in;
## a spectator reads every seat in the third person.


static func _tr(key: String) -> String:
	return TranslationServer.translate(key)


static func _is_you(seat: int, local: int, spectator: bool) -> bool:
	return not spectator and seat == local


## Seats by the compass, for who watches rather than plays.
const COMPASS: Array[String] = ["SEAT_SOUTH", "SEAT_EAST", "SEAT_NORTH", "SEAT_WEST"]


## A seat's name in the third person: seat 0 is "You" only to the player sitting there; to a
## hot-seat player elsewhere it is South; a spectator names every seat by the compass (in Chinese
## the player's words 下家/对家/上家 say where a seat sits from the player's chair: a watcher has
## none, so 东家/北家/西家).
static func seat_name(seat: int, local: int, spectator := false) -> String:
	if spectator:
		return _tr(COMPASS[seat])
	if seat == 0 and local != 0:
		return _tr("SEAT_SOUTH")
	return _tr("SEAT_%d" % seat)


## A seat's name inside a sentence: "you" / "你" for the player, else East, North, West….
static func seat_in_text(seat: int, local: int, spectator := false) -> String:
	return _tr("YOU_IN_TEXT") if _is_you(seat, local, spectator) else seat_name(seat, local, spectator)


## Capitalises the first letter (a sentence that starts with "you"); no effect on Chinese.
static func sentence(text: String) -> String:
	return text.substr(0, 1).to_upper() + text.substr(1) if text != "" else text


## "Table cleared · North leads" / "Table cleared · you lead", or the partner-takes-lead form.
static func lead(partner: bool, seat: int, local: int, spectator := false) -> String:
	if _is_you(seat, local, spectator):
		return _tr("PARTNER_TAKES_LEAD_YOU" if partner else "TABLE_CLEARED_YOU")
	var key := "PARTNER_TAKES_LEAD_FMT" if partner else "TABLE_CLEARED_FMT"
	return _tr(key).format({seat = seat_name(seat, local, spectator)})


## "West goes out · 1st" / "You go out · 1st".
static func finished(seat: int, place: int, local: int, spectator := false) -> String:
	var where := UiKit.place_text(place)
	if _is_you(seat, local, spectator):
		return _tr("FINISHED_YOU_FMT").format({place = where})
	return _tr("FINISHED_FMT").format({seat = seat_name(seat, local, spectator), place = where})


## A tribute (or a return) line: "West gives you ♥A as tribute", "You return ♠7 to East"….
static func exchange(is_tribute: bool, from: int, to: int, local: int, spectator: bool, card: String) -> String:
	var kind := "TRIBUTE" if is_tribute else "RETURN"
	if _is_you(from, local, spectator):
		return _tr(kind + "_GIVEN_BY_YOU_FMT").format({to = seat_name(to, local, spectator), card = card})
	if _is_you(to, local, spectator):
		return _tr(kind + "_GIVEN_TO_YOU_FMT").format({from = seat_name(from, local, spectator), card = card})
	return _tr(kind + "_GIVEN_FMT").format({from = seat_name(from, local, spectator), to = seat_name(to, local, spectator),
		card = card})


## "Tribute: you, West must pay" / "You resist the tribute (both big jokers)".
static func tribute_phase(resisted: bool, seats: PackedInt32Array, local: int, spectator := false) -> String:
	var names := PackedStringArray()
	for seat in seats:
		names.append(seat_in_text(seat, local, spectator))
	var key := "RESIST_FMT" if resisted else "TRIBUTE_FMT"
	var you := false
	for seat in seats:
		you = you or _is_you(seat, local, spectator)
	if you and seats.size() == 1:
		key = "RESIST_YOU" if resisted else "TRIBUTE_YOU"
	return sentence(_tr(key).format({seats = _tr("LIST_SEP").join(names)}))


## What the turn clock did for the player: passed, or played `what` (a play's description).
static func timed_out(passed: bool, what := "") -> String:
	return _tr("TIMED_OUT_PASSED") if passed else _tr("TIMED_OUT_PLAYED_FMT").format({play = what})


## A team's name: "Our team" / "Opponents" to a player (team 0 is the player's side), the seats'
## names to a spectator, who is on neither side.
static func team(t: int, spectator := false) -> String:
	if spectator:
		return _tr("TEAM_SOUTH_NORTH" if t == 0 else "TEAM_EAST_WEST")
	return _tr("TEAM_US" if t == 0 else "TEAM_THEM")


## "Us 5 · Them 3" to a player, "South–North 5 · East–West 3" to a spectator.
static func levels(key_player: String, key_spectator: String, levels_by_team: PackedInt32Array,
		spectator := false) -> String:
	var us := Cards.rank_label(levels_by_team[0])
	var them := Cards.rank_label(levels_by_team[1])
	return _tr(key_spectator if spectator else key_player).format({us = us, them = them})


## Who won a deal or the match: "your team wins" / "the opponents win" to a player (`key_won`,
## `key_lost`), "South–North win" to a spectator (`key_by`, with {team}).
static func winner(key_won: String, key_lost: String, key_by: String, winner_team: int, my_team: int,
		spectator := false) -> String:
	if spectator:
		return _tr(key_by).format({team = team(winner_team, true)})
	return _tr(key_won if winner_team == my_team else key_lost)
