extends RefCounted
## Plays by another seat for table tests: real plays (`Play.of`, read by the rules core) of card
## ids the player does not hold (and, for `long_play`, no seat shows).


## `n` card ids that are not in `mine` (the player's hand) and are not jokers.
static func ids(mine: PackedInt32Array, n: int) -> PackedInt32Array:
	var out := PackedInt32Array()
	for id in Cards.DECK_SIZE:
		if not (id in mine) and not Cards.is_joker(id):
			out.append(id)
			if out.size() == n:
				break
	return out


## A play of kind `type` (`Single`, `Straight`, `StraightFlush`, `Bomb`, `FourKings`) of `n`
## cards (a straight is always 5) not in `mine`, from rank 7 up where the hand leaves enough.
## `key` and `bomb` are what the play must turn out to be (checked).
static func play(mine: PackedInt32Array, type: String, key: String, n: int, bomb: bool) -> Play:
	var cards := PackedInt32Array()
	match type:
		"FourKings":
			cards = PackedInt32Array([52, 53, 106, 107])
		"Single":
			cards = ids(mine, 1)
		"Bomb":
			for r in range(7, 15):
				cards = _copies(mine, r, n)
				if cards.size() == n:
					break
		"Straight", "StraightFlush":
			for low in range(7, 11):
				cards = _run(mine, low, type == "StraightFlush")
				if cards.size() == 5:
					break
	var p := Play.of(cards, 2, type)
	assert(p != null and p.name_key == key and p.bomb == bomb, "FakePlays: no %s of %d cards" % [type, n])
	return p


## Up to `n` ids of rank `r` (any suit, either deck) not in `mine`.
static func _copies(mine: PackedInt32Array, r: int, n: int) -> PackedInt32Array:
	var out := PackedInt32Array()
	for id in Cards.DECK_SIZE:
		if not Cards.is_joker(id) and Cards.rank(id) == r and not (id in mine) and out.size() < n:
			out.append(id)
	return out


## Five ids of ranks low..low+4 not in `mine`: one suit (a straight flush) or two alternating.
static func _run(mine: PackedInt32Array, low: int, one_suit: bool) -> PackedInt32Array:
	var out := PackedInt32Array()
	for i in 5:
		var suit := 0 if one_suit or i % 2 == 0 else 1
		for deck in 2:
			var id := deck * 54 + suit * 13 + (low + i - 2)
			if not (id in mine):
				out.append(id)
				break
	return out


## The play of a LONG_PLAYS entry `kind` (test_table_layout.gd) made of cards nobody at `table`
## shows, read by the rules core. Four seats showing the same shape can use up a rank's eight copies (the hand holds some), so the
## shape moves to other ranks when its own are gone; a bomb takes the rank with the most free
## copies (up to its size); a straight is never all of one suit (that reads as a straight flush).
static func long_play(table: Table, kind: Array) -> Play:
	if kind[0] == "Bomb":
		var best := PackedInt32Array()
		for r in range(3, 15):
			var same := free_cards(table, PackedInt32Array([r, r, r, r, r, r, r, r]).slice(0, kind[2].size()), -1, true)
			if same.size() > best.size():
				best = same
		return Play.of(best, table.level, "Bomb") if best.size() >= 4 else null
	for shift in [0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5]:
		var ranks: Array = kind[2].map(func(r: int) -> int: return r + shift)
		if ranks.any(func(r: int) -> bool: return r < 3 or r > 14 or r == table.level):
			continue
		for suit in ([-1] if kind[0] != "StraightFlush" else [0, 1, 2, 3]):
			var cards := free_cards(table, ranks, suit, true)
			if cards.size() != ranks.size():
				continue
			if kind[0] == "Straight" and Array(cards).all(func(id: int) -> bool: return Cards.suit(id) == Cards.suit(cards[0])):
				var other := free_cards(table, [ranks[-1]], -1, true, Cards.suit(cards[0]))
				if other.is_empty():
					continue
				cards[-1] = other[0]
			return Play.of(cards, table.level, kind[0])
	return null


## Free card ids of these ranks (of `suit` when >= 0, never of `not_suit`); `exact`: none other
## in their place.
static func free_cards(table: Table, ranks: Array, suit := -1, exact := false, not_suit := -1) -> PackedInt32Array:
	var used := {}
	for id in table.hand.cards():
		used[id] = true
	for seat in 4:
		for id in table.zone.shown(seat):
			used[id] = true
	var out := PackedInt32Array()
	for rank: int in ranks:
		var pick := -1
		for id in 108:
			if not used.has(id) and not Cards.is_joker(id) and Cards.rank(id) == rank and (suit < 0 or int(Cards.suit(id)) == suit) \
					and int(Cards.suit(id)) != not_suit:
				pick = id
				break
		if pick < 0 and exact:
			continue
		if pick < 0:
			for id in 108:
				if not used.has(id):
					pick = id
					break
		used[pick] = true
		out.append(pick)
	return out
