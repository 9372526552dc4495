extends RefCounted
## Plays by another seat, made up for table tests: real plays (`Play.of`, read by the rules core)
## of card ids the player does not hold, at level 2 and without a wild.


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
