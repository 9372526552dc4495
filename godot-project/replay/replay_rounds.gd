class_name ReplayRounds
extends RefCounted
## The rounds of a deal from the engine's events (replays): plays and passes grouped into rounds,
## a round ending where the table was cleared (or the partner took the lead). Used by the replay
## screen to draw the centre and the history sidebar at any position.


## [{entries: [[seat, play or null for a pass]]}] oldest first, from events in order.
static func rounds(events: Array[MatchEvent]) -> Array[Dictionary]:
	var out: Array[Dictionary] = [{entries = []}]
	for e in events:
		if e is CardsPlayedEvent:
			out[-1].entries.append([(e as CardsPlayedEvent).seat, (e as CardsPlayedEvent).play])
		elif e is PassedEvent:
			out[-1].entries.append([(e as PassedEvent).seat, null])
		elif e is TableClearedEvent or e is PartnerTakesLeadEvent:
			if not out[-1].entries.is_empty():
				out.append({entries = []})
		elif e is DealStartedEvent:
			out = [{entries = []}]
	return out


## Each seat's latest entry in the current (last) round: seat -> play (null = pass); seats that have
## not acted in the round are missing.
static func latest(rounds_list: Array[Dictionary]) -> Dictionary:
	var out := {}
	if rounds_list.is_empty():
		return out
	for e: Array in rounds_list[-1].entries:
		out[e[0]] = e[1]
	return out
