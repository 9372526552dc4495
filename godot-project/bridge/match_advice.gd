class_name MatchAdvice
extends RefCounted
## Advice for the local player of the live match (training): hints, what the selected cards can
## be, the legal plays, the heat map, the card counter, and the AI's reasons for the overlay —
## a MoveAdvisor attached to the match's engine. Reached as `MatchController.advice`.

var advisor := MoveAdvisor.new()
var _match: MatchController


func _init(live: MatchController) -> void:
	_match = live


## Follows `engine` (the controller's, once it exists).
func attach(engine: GuandanEngine) -> void:
	advisor.attach(engine)


## Hints for the local player, best first: [{pass, play: {} (pass) or a play dictionary, reason,
## reason_args, score}]. Empty when it is not the local player's turn.
func hints(limit := 5) -> Array:
	if _match.local_seat() < 0:
		return []
	return advisor.hints(limit)


## What the selected cards are and can become: {readings: [{index, play, playable,
## default}], playable: [the playable ones], wild_snaps: [{wild, play, as_rank, as_suit}]}.
func selection(cards: PackedInt32Array) -> Dictionary:
	if _match.local_seat() < 0 or cards.is_empty():
		return {}
	var readings: Array = []
	var playable: Array = []
	for r: Dictionary in advisor.readings(cards):
		readings.append(r)
		if r.playable:
			playable.append(r)
	return {readings = readings, playable = playable, wild_snaps = advisor.wild_snaps(cards)}


## Every play the local player may make now (empty selection), or the plays containing `cards`.
func legal_plays(cards := PackedInt32Array()) -> Array:
	return advisor.legal_plays(cards)


## Heat map of the local hand: card id -> {bomb, straight, wild, danger} (each 0..1).
func heat_map() -> Dictionary:
	if _match.local_seat() < 0:
		return {}
	return advisor.heat_map()


## The card counter of the local player: {ranks: 15 counts (2..A, small joker, big joker) of the
## cards the other three still hold, wilds, total}; {} without a local player.
func card_counter() -> Dictionary:
	if _match.local_seat() < 0:
		return {}
	return advisor.card_counter()


## The AI's reasons for the last decision of `seat` (AI debug overlay; AI seats are created with
## their profile's `debug` on when the config's ai_debug is), or {}.
func ai_trace(seat: int) -> Dictionary:
	return advisor.ai_trace(seat)
