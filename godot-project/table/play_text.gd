class_name PlayText
extends RefCounted
## Words for plays and cards, from the engine's play dictionaries ({type, rank, rank_text, size,
## suit, cards, bomb, name_key, …}): the engine sends keys and ids, the words are ours.

## Cards in a sequence of each type (for "5–9").
const SEQUENCE_LENGTH := {"Straight": 5, "StraightFlush": 5, "ThreePair": 3, "TwoTrips": 2}


## "Pair K", "Straight 5–9", "Bomb ×5 of 7", "Four jokers" (translated).
static func describe(play: Dictionary) -> String:
	var kind := TranslationServer.translate(String(play.get("name_key", "play.single")))
	var type := String(play.get("type", ""))
	if type == "FourKings":
		return kind
	var rank := rank_display(String(play.get("rank_text", "")))
	if SEQUENCE_LENGTH.has(type):
		var low := int(play.get("rank", 0))
		var high := low + int(SEQUENCE_LENGTH[type]) - 1
		rank = "%s–%s" % [position_label(low), position_label(high)]
	if type == "Bomb":
		return TranslationServer.translate("PLAY_BOMB_FMT").format({size = play.get("size", 4), rank = rank})
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
	return TranslationServer.translate(key).format(shown)
