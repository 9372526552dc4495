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


## Hints for the local player, best first. Empty when it is not the local player's turn.
func hints(limit := 5) -> Array[Hint]:
	if _match.local_seat() < 0:
		return []
	return advisor.hints(limit)


## What the selected cards are and can become (readings, the playable ones, wild snaps); null
## without a local player or a selection.
func selection(cards: PackedInt32Array) -> Selection:
	if _match.local_seat() < 0 or cards.is_empty():
		return null
	return advisor.selection(cards)


## Every play the local player may make now (empty selection), or the plays containing `cards`.
func legal_plays(cards := PackedInt32Array()) -> Array[Play]:
	return advisor.legal_plays(cards)


## Heat map of the local hand: what each card is good for (weights 0..1).
func heat_map() -> Array[CardHeat]:
	if _match.local_seat() < 0:
		return []
	return advisor.heat_map()


## The card counter of the local player (what the other three still hold); null without a
## local player.
func card_counter() -> CardCounter:
	if _match.local_seat() < 0:
		return null
	return advisor.card_counter()


## The AI's reasons for the last decision of `seat` (AI debug overlay; AI seats are created with
## their profile's `debug` on when the config's ai_debug is), or null.
func ai_trace(seat: int) -> AiTrace:
	return advisor.ai_trace(seat)
