class_name EngineTestSuite
extends GdTestSuite
## Helpers for the GuandanEngine tests: engines owned by the test, a log of every signal, and
## signal helpers (waiting is the suite base's wait_until: AI seats act from the engine's _process).

const COMPETITION := "res://resources/rules/competition.tres"
const HOUSE := "res://resources/rules/house.tres"
const HUAIAN := "res://resources/rules/huaian.tres"


## A GuandanEngine in the tree (freed with the test), with the turn timer off so AI matches are
## deterministic, and a generous per-frame AI budget so whole matches take little time.
func make_engine() -> GuandanEngine:
	var engine := GuandanEngine.new()
	engine.use_turn_timer = false
	engine.ai_frame_budget_ms = 20.0
	add_child(engine)
	return engine


## Records every signal of `engine` as [name, args] into the returned array, in emission order.
func watch(engine: GuandanEngine) -> Array:
	var log := []
	for info in engine.get_signal_list():
		var signal_name: String = info.name
		if ClassDB.class_has_signal(&"Node", signal_name):
			continue
		engine.connect(signal_name, func(...args: Array) -> void: log.append([signal_name, args]))
	return log


## Signals of one name from a `watch` log: their argument arrays.
static func of(log: Array, signal_name: String) -> Array:
	return log.filter(func(e: Array) -> bool: return e[0] == signal_name).map(func(e: Array) -> Array: return e[1])


static func names(log: Array) -> Array:
	return log.map(func(e: Array) -> String: return e[0])


## Card ids of `hand` whose single card reading does not beat the table (a "cannot beat" play),
## found through the advisor; -1 if every single beats it.
static func losing_single(advisor: MoveAdvisor, hand: PackedInt32Array) -> int:
	for id in hand:
		var readings := advisor.readings(PackedInt32Array([id]))
		if readings.size() == 1 and not readings[0].playable:
			return id
	return -1


## Two cards of the hand that make no combination (a pair of different ranks), or [].
static func non_combination(advisor: MoveAdvisor, hand: PackedInt32Array) -> PackedInt32Array:
	for i in hand.size():
		for j in range(i + 1, hand.size()):
			var pair := PackedInt32Array([hand[i], hand[j]])
			if advisor.readings(pair).is_empty():
				return pair
	return PackedInt32Array()


## A card id that is not in `hand`.
static func not_in(hand: PackedInt32Array) -> int:
	for id in GuandanEngine.DECK_SIZE:
		if id not in hand:
			return id
	return -1
