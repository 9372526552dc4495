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


## Seats named in a sentence and joined: "East and West", "North and you" (the player last),
## "East or West" with `key` LIST_OR_FMT.
static func seats_in_text(seats: PackedInt32Array, local: int, spectator := false, key := "LIST_AND_FMT") -> String:
	var names := PackedStringArray()
	var you := ""
	for seat in seats:
		if _is_you(seat, local, spectator):
			you = seat_in_text(seat, local, spectator)
		else:
			names.append(seat_in_text(seat, local, spectator))
	if you != "":
		names.append(you)
	if names.size() < 2:
		return "".join(names)
	var head := _tr("LIST_SEP").join(names.slice(0, names.size() - 1))
	return _tr(key).format({a = head, b = names[-1]})


## Who pays whom as a tribute is due: "You pay a tribute to East", "West pays you a tribute",
## "North and you pay tributes to East and West", "You resist the tribute (both big jokers)".
## `receivers` (the last deal's first — and second, for two tributes — out) may be empty when
## not known: the sentence then names the payers only.
static func tribute_phase(resisted: bool, payers: PackedInt32Array, local: int, spectator := false,
		receivers := PackedInt32Array()) -> String:
	var you_pay := false
	for seat in payers:
		you_pay = you_pay or _is_you(seat, local, spectator)
	var from := seats_in_text(payers, local, spectator)
	if resisted:
		return sentence(_tr("RESIST_YOU" if you_pay and payers.size() == 1 else "RESIST_FMT").format({seats = from}))
	var to := seats_in_text(receivers, local, spectator)
	var key := "TRIBUTE_ONE_TO_FMT" if to != "" else "TRIBUTE_ONE_FMT"
	if payers.size() > 1:
		key = "TRIBUTE_TWO_TO_FMT" if to != "" else "TRIBUTE_TWO_FMT"
	elif you_pay:
		key = "TRIBUTE_YOU_TO_FMT" if to != "" else "TRIBUTE_YOU_FMT"
	elif receivers.size() == 1 and _is_you(receivers[0], local, spectator):
		key = "TRIBUTE_TO_YOU_FMT"
	return sentence(_tr(key).format({from = from, to = to}))


## The player's tribute is given, the line that replaces "You pay a tribute…": "You paid ♠A to
## East", or before it is routed "You paid ♠A — waiting for North" (`to` -1; `waiting` the
## payers still to pay).
static func tribute_paid(card: String, to: int, waiting: PackedInt32Array, local: int) -> String:
	if to >= 0:
		return _tr("TRIBUTE_PAID_TO_FMT").format({card = card, to = seat_name(to, local)})
	if waiting.is_empty():
		return _tr("TRIBUTE_PAID_FMT").format({card = card})
	return _tr("TRIBUTE_PAID_WAITING_FMT").format({card = card, seats = seats_in_text(waiting, local)})


## The status line while the player's tribute is due: "Choose your tribute for East (highlighted),
## then Give tribute." (two receivers: "for East or West"; none known: the plain prompt).
static func tribute_prompt(receivers: PackedInt32Array, local: int) -> String:
	if receivers.is_empty():
		return _tr("TRIBUTE_PROMPT")
	return _tr("TRIBUTE_PROMPT_FOR_FMT").format({to = seats_in_text(receivers, local, false, "LIST_OR_FMT")})


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
