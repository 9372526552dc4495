class_name HandGroups
extends RefCounted
## The grouping view of a hand: four jokers, bombs, straights, triples, pairs, singles and wilds,
## each a cluster. A display aid only (greedy, no search): the rules and the hints live in Rust.
## Manual groups (marked by the player) come first and are kept whole.

## Group kinds in display order; the names are translation keys ("GROUP_" + upper case).
const KINDS: Array[StringName] = [&"manual", &"four_jokers", &"bomb", &"straight", &"triple",
	&"pair", &"single", &"wild"]


## [{kind: StringName, ids: PackedInt32Array, tag: int}] in display order; `manual` maps card id to
## a manual group number (tag).
static func groups(ids: PackedInt32Array, level: int, manual := {}) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	var rest := PackedInt32Array()
	var manual_groups := {}
	for id in Cards.sorted(ids, level):
		if manual.has(id):
			var tag: int = manual[id]
			if not manual_groups.has(tag):
				manual_groups[tag] = PackedInt32Array()
			manual_groups[tag].append(id)
		else:
			rest.append(id)
	var tags := manual_groups.keys()
	tags.sort()
	for tag: int in tags:
		out.append({kind = &"manual", ids = manual_groups[tag], tag = tag})

	var wilds := PackedInt32Array()
	var jokers := PackedInt32Array()
	var by_rank := {}  # rank 2..14 -> ids
	for id in rest:
		if Cards.is_wild(id, level):
			wilds.append(id)
		elif Cards.is_joker(id):
			jokers.append(id)
		else:
			var r := Cards.rank(id)
			if not by_rank.has(r):
				by_rank[r] = PackedInt32Array()
			by_rank[r].append(id)
	if jokers.size() == 4:
		out.append({kind = &"four_jokers", ids = jokers, tag = 0})
		jokers = PackedInt32Array()
	for id in jokers:  # jokers group by value like a rank
		var r := 15 + Cards.value(id) - Cards.SMALL_JOKER
		if not by_rank.has(r):
			by_rank[r] = PackedInt32Array()
		by_rank[r].append(id)

	var ranks := by_rank.keys()
	ranks.sort_custom(func(a: int, b: int) -> bool: return _order(a, level) < _order(b, level))
	var bombs: Array[Dictionary] = []
	for r: int in ranks:
		if by_rank[r].size() >= 4:
			bombs.append({kind = &"bomb", ids = by_rank[r], tag = 0})
			by_rank.erase(r)
	bombs.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return a.ids.size() > b.ids.size())
	out.append_array(bombs)

	# Straights from singles only (never breaks a pair or a triple): runs of five natural places,
	# ace low (A2345) or high (10JQKA).
	var singles := {}
	for r: int in by_rank:
		if r <= 14 and by_rank[r].size() == 1:
			singles[r] = true
	var start := 1
	while start <= 10:
		var ok := true
		for pos in range(start, start + 5):
			if not singles.has(14 if pos == 1 else pos):
				ok = false
				break
		if not ok:
			start += 1
			continue
		var run := PackedInt32Array()
		for pos in range(start, start + 5):
			var r := 14 if pos == 1 else pos
			run.append(by_rank[r][0])
			by_rank.erase(r)
			singles.erase(r)
		out.append({kind = &"straight", ids = Cards.sorted(run, level), tag = 0})
		start += 5
	for size_kind: Array in [[3, &"triple"], [2, &"pair"], [1, &"single"]]:
		var cluster := PackedInt32Array()
		for r: int in ranks:
			if by_rank.has(r) and by_rank[r].size() == size_kind[0]:
				cluster.append_array(by_rank[r])
		if not cluster.is_empty():
			out.append({kind = size_kind[1], ids = cluster, tag = 0})
	if not wilds.is_empty():
		out.append({kind = &"wild", ids = wilds, tag = 0})
	return out


static func _order(r: int, level: int) -> int:
	if r == level:
		return 15
	return r + 1 if r >= 15 else r
