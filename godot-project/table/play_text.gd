class_name PlayText
extends RefCounted
## Words for plays and cards, from the engine's play dictionaries ({type, rank, rank_text, size,
## suit, cards, bomb, name_key, …}): the engine sends keys and ids, the words are ours.

## Cards in a sequence of each type (for "5–9").
const SEQUENCE_LENGTH := {"Straight": 5, "StraightFlush": 5, "ThreePair": 3, "TwoTrips": 2}


## The cards of `play` in the order they read, each with the rank a wild stands for (0 for a
## natural card): [[id, as_rank], …]. A full house reads its three then its pair, a sequence from
## its low end; a wild takes the place of the card it stands for ("A A ♥4 3 3" for AAA+33 with a
## wild as the third A). Without wilds: the cards in rank order.
static func arranged(play: Play, level: int) -> Array:
	var sorted := Cards.sorted(play.cards, level)
	var naturals: Array[int] = []
	var wilds: Array[int] = []
	for id in sorted:
		(wilds if Cards.is_wild(id, level) else naturals).append(id)
	var out: Array = []
	if wilds.is_empty():
		for id in sorted:
			out.append([id, 0])
		return out
	# The rank of each card the play is made of, in reading order.
	var type := play.kind
	var rank := play.rank
	var need: Array[int] = []
	if SEQUENCE_LENGTH.has(type):
		var copies: int = {"ThreePair": 2, "TwoTrips": 3}.get(type, 1)
		for pos in range(rank, rank + int(SEQUENCE_LENGTH[type])):
			for i in copies:
				need.append(14 if pos == 1 else pos)
	elif type == "ThreeWithTwo":
		var pair := rank
		for id in naturals:
			if Cards.rank(id) != rank:
				pair = Cards.rank(id)
		for i in 5:
			need.append(rank if i < 3 else pair)
	else:
		for i in sorted.size():
			need.append(rank)
	for r in need:
		var at := naturals.find_custom(func(id: int) -> bool: return Cards.rank(id) == r)
		if at >= 0:
			out.append([naturals.pop_at(at), 0])
		elif not wilds.is_empty():
			out.append([wilds.pop_front(), r])
	for id in naturals + wilds:  # not read (never, for a play the engine made)
		out.append([id, 0])
	return out


## The cards of a play that uses a wild as read, a wild marked with what it stands for:
## "A A A(♥4 wild) 3 3"; "" for a play without a wild standing for another card.
static func wild_cards_text(play: Play, level: int) -> String:
	var parts := PackedStringArray()
	var stands := false
	for c: Array in arranged(play, level):
		var id: int = c[0]
		var as_rank: int = c[1]
		if as_rank > 0 and as_rank != Cards.rank(id):
			stands = true
			parts.append(TranslationServer.translate("WILD_AS_FMT").format({rank = Cards.rank_label(as_rank),
				card = card_text(id)}))
		else:
			parts.append(card_text(id) if Cards.is_joker(id) else Cards.rank_label(Cards.rank(id)))
	return " ".join(parts) if stands else ""


## "Pair K", "Straight 5–9", "Bomb ×5 of 7", "Four jokers" (translated).
static func describe(play: Play) -> String:
	var kind := TranslationServer.translate(play.name_key)
	var type := play.kind
	if type == "FourKings":
		return kind
	var rank := rank_display(play.rank_text)
	if SEQUENCE_LENGTH.has(type):
		var low := play.rank
		var high := low + int(SEQUENCE_LENGTH[type]) - 1
		rank = "%s–%s" % [position_label(low), position_label(high)]
	if type == "Bomb":
		return TranslationServer.translate("PLAY_BOMB_FMT").format({size = play.size, rank = rank})
	return TranslationServer.translate("PLAY_FMT").format({kind = kind, rank = rank})


## The engine's rank letter as shown: "T" -> "10", "B" / "R" -> the small / big joker; others
## unchanged.
static func rank_display(rank_text: String) -> String:
	match rank_text:
		"T":
			return "10"
		"B":
			return TranslationServer.translate("CARD_SMALL_JOKER")
		"R":
			return TranslationServer.translate("CARD_BIG_JOKER")
	return rank_text


## A sequence position 1..14 (1 = low ace, 14 = high ace) as a rank label.
static func position_label(pos: int) -> String:
	if pos == 1 or pos == 14:
		return "A"
	return Cards.rank_label(pos)


## A card as text with its suit glyph: "♥5", "10♠"-style is avoided for compactness: "♠10".
static func card_text(id: int) -> String:
	if Cards.is_joker(id):
		return TranslationServer.translate("CARD_BIG_JOKER" if Cards.value(id) == Cards.BIG_JOKER else "CARD_SMALL_JOKER")
	return Cards.SUIT_GLYPHS[int(Cards.suit(id))] + Cards.rank_label(Cards.rank(id))


## A reason key from the AI with its arguments ("reason.take_lead", ["Pair", "K"]), translated;
## play kind names and rank letters among the arguments are translated too.
static func reason(key: String, args: Array) -> String:
	var shown := {}
	for i in args.size():
		var a := String(args[i])
		var kind_key := "play." + a.to_snake_case()
		var translated := TranslationServer.translate(kind_key)
		shown[str(i)] = translated if translated != kind_key else rank_display(a)
	var text := TranslationServer.translate(key).format(shown)
	if args.has(""):
		# A pass has no rank: its empty argument must leave no space before punctuation or a second.
		for gap: String in ["  ", " :", " ：", " ，"]:
			text = text.replace(gap, gap.substr(1) if gap != "  " else " ")
	return text
