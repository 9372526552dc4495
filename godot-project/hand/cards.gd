@tool
class_name Cards
extends RefCounted
## Card ids as the engine uses them, for display and sorting (the rules themselves are in Rust).
##
## id 0..107; value = id % 54; value = suit * 13 + (rank - 2) for suits S, H, C, D (0..3) and
## ranks 2..14 (A = 14); value 52 = small joker, 53 = big joker. The hearts of the level rank are
## wild. Notation: suit letter + rank letter (S2, HT, DA), SB small joker, HR big joker.

enum Suit { SPADES, HEARTS, CLUBS, DIAMONDS, JOKER }

const DECK_SIZE := 108
const SMALL_JOKER := 52
const BIG_JOKER := 53
const RANK_LETTERS := "23456789TJQKA"
const SUIT_LETTERS := "SHCD"
## What a card shows in its corner, by rank 2..14.
const RANK_LABELS: Array[String] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
const SUIT_GLYPHS: Array[String] = ["♠", "♥", "♣", "♦"]


static func value(id: int) -> int:
	return id % 54


static func is_joker(id: int) -> bool:
	return value(id) >= SMALL_JOKER


## 2..14 for suited cards, 15 small joker, 16 big joker.
static func rank(id: int) -> int:
	var v := value(id)
	if v >= SMALL_JOKER:
		return 15 + (v - SMALL_JOKER)
	return v % 13 + 2


static func suit(id: int) -> Suit:
	var v := value(id)
	if v >= SMALL_JOKER:
		return Suit.JOKER
	return (v / 13) as Suit


static func is_red(id: int) -> bool:
	var s := suit(id)
	if s == Suit.JOKER:
		return value(id) == BIG_JOKER
	return s == Suit.HEARTS or s == Suit.DIAMONDS


static func is_level_card(id: int, level: int) -> bool:
	return not is_joker(id) and rank(id) == level


static func is_wild(id: int, level: int) -> bool:
	return is_level_card(id, level) and suit(id) == Suit.HEARTS


static func notation(id: int) -> String:
	if id < 0 or id >= DECK_SIZE:
		return "?"
	var v := value(id)
	if v == SMALL_JOKER:
		return "SB"
	if v == BIG_JOKER:
		return "HR"
	return SUIT_LETTERS[v / 13] + RANK_LETTERS[v % 13]


## Rank label for a rank 2..14 ("10", "J", …); level texts use it too.
static func rank_label(r: int) -> String:
	return RANK_LABELS[clampi(r, 2, 14) - 2]


## Rank from a letter ("2".."9", "T"/"10", "J", "Q", "K", "A"), or 0.
static func rank_from_text(text: String) -> int:
	var t := text.strip_edges().to_upper()
	if t == "10":
		return 10
	var i := RANK_LETTERS.find(t)
	return i + 2 if t.length() == 1 and i >= 0 else 0


## Order of a card in a sorted hand: rank (the level rank above the ace, jokers last), then suit.
## Both copies of a card sort together (ties broken by id so the order is total).
static func sort_key(id: int, level: int) -> int:
	var r := rank(id)
	var order := r
	if r <= 14 and r == level:
		order = 15  # between the ace (14) and the small joker (16)
	elif r >= 15:
		order = r + 1
	var s := int(suit(id)) if r <= 14 else 0
	return (order * 8 + s) * 128 + id


## Ids sorted for display, lowest first.
static func sorted(ids: PackedInt32Array, level: int) -> PackedInt32Array:
	var arr := Array(ids)
	arr.sort_custom(func(a: int, b: int) -> bool: return sort_key(a, level) < sort_key(b, level))
	return PackedInt32Array(arr)


## Space-separated notation.
static func notation_list(ids: PackedInt32Array) -> String:
	var parts := PackedStringArray()
	for id in ids:
		parts.append(notation(id))
	return " ".join(parts)


## Ids from notation text ("S2 HT SB"); picks the first copy not yet used, then the second deck.
## Unknown tokens are skipped. For tests and debug tools.
static func from_notation(text: String) -> PackedInt32Array:
	var out := PackedInt32Array()
	for token in text.split(" ", false):
		var v := -1
		if token == "SB":
			v = SMALL_JOKER
		elif token == "HR":
			v = BIG_JOKER
		elif token.length() == 2:
			var s := SUIT_LETTERS.find(token[0])
			var r := RANK_LETTERS.find(token[1])
			if s >= 0 and r >= 0:
				v = s * 13 + r
		if v < 0:
			continue
		out.append(v + 54 if out.has(v) else v)
	return out
