extends RefCounted
## Plays by another seat, made up for table tests: card ids the player does not hold (and no
## joker), in the shape the engine's cards_played event carries.


## `n` card ids that are not in `mine` (the player's hand) and are not jokers.
static func ids(mine: PackedInt32Array, n: int) -> PackedInt32Array:
	var out := PackedInt32Array()
	for id in Cards.DECK_SIZE:
		if not (id in mine) and not Cards.is_joker(id):
			out.append(id)
			if out.size() == n:
				break
	return out


## A play of `n` such cards, named by `key` (rank 7).
static func play(mine: PackedInt32Array, type: String, key: String, n: int, bomb: bool) -> Dictionary:
	return {type = type, name_key = key, size = n, bomb = bomb, rank = 7, rank_text = "7", cards = ids(mine, n)}
