extends SceneTree
## Headless play: deals a seeded match with the Rust engine and prints what happened.
## Run through `tools/play --headless [--seed N]`, which does
##   tools/godot --headless --path godot-project --script res://tools/headless_play.gd -- --seed N
## after importing the project (without the import the extension is not loaded in --script mode).
##
## Built to grow with the engine: run() walks the phases of a match and each phase is one
## function that prints its part; when the engine can play whole matches, the play loop goes
## between the deal and the summary. Exit code: 0 ok, 1 engine problem, 2 bad arguments.

const SEAT_NAMES: Array[String] = ["South", "East", "North", "West"]
const USAGE := "usage: headless_play.gd -- [--seed N]   (N: any 64-bit integer, default 1)"

var _engine: Node  # GuandanEngine
var _advisor: RefCounted  # MoveAdvisor


func _initialize() -> void:
	quit(run(OS.get_cmdline_user_args()))


func run(args: PackedStringArray) -> int:
	var options := parse_args(args)
	if options.has("error"):
		printerr(options.error)
		printerr(USAGE)
		return 2
	if not ClassDB.class_exists(&"GuandanEngine"):
		printerr("GuandanEngine is not registered: build it with tools/build-extension, then import")
		return 1
	# Created through ClassDB so this script still parses when the extension is missing.
	_engine = ClassDB.instantiate(&"GuandanEngine")
	_advisor = ClassDB.instantiate(&"MoveAdvisor")
	var seed: int = options.seed
	print("Guandan headless play, engine %s, seed %d" % [_engine.version(), seed])
	var hands: Array[PackedInt32Array] = _engine.deal(seed)
	_print_deal(hands)
	var ok := _print_summary(hands)
	_engine.free()
	return 0 if ok else 1


## {"seed": int} from the command line, or {"error": message}. Static so tests can call it.
static func parse_args(args: PackedStringArray) -> Dictionary:
	var options := {"seed": 1}
	var i := 0
	while i < args.size():
		var arg := args[i]
		var value := ""
		if arg == "--seed" and i + 1 < args.size():
			i += 1
			value = args[i]
		elif arg.begins_with("--seed="):
			value = arg.trim_prefix("--seed=")
		else:
			return {"error": "unknown or incomplete argument: %s" % arg}
		var seed: Variant = parse_int64(value)
		if seed == null:
			return {"error": "--seed needs a 64-bit integer, got %s" % var_to_str(value)}
		options.seed = seed
		i += 1
	return options


## The int written in `text`, or null if it is not one or does not fit 64 bits.
static func parse_int64(text: String) -> Variant:
	if not text.is_valid_int():
		return null
	# to_int() logs an error and saturates when the number is too big: check the digits first.
	var digits := text.trim_prefix("+").trim_prefix("-").lstrip("0")
	var limit := "9223372036854775808" if text.begins_with("-") else "9223372036854775807"
	if digits.length() > limit.length() or (digits.length() == limit.length() and digits > limit):
		return null
	return text.to_int()


func _print_deal(hands: Array[PackedInt32Array]) -> void:
	print("Deal:")
	for seat in hands.size():
		var hand := hands[seat]
		print("  seat %d %-5s (%d): %s" % [seat, SEAT_NAMES[seat], hand.size(), _advisor.hand_notation(hand)])


## Checks the deal and prints the summary; false if the deal is not a partition of both decks.
func _print_summary(hands: Array[PackedInt32Array]) -> bool:
	var seen := {}
	var jokers := PackedStringArray()
	for seat in hands.size():
		var count := 0
		for id in hands[seat]:
			seen[id] = seen.get(id, 0) + 1
			if _advisor.card_notation(id) in ["SB", "HR"]:
				count += 1
		jokers.append("%s %d" % [SEAT_NAMES[seat], count])
	var sizes := hands.map(func(hand: PackedInt32Array) -> int: return hand.size())
	var deck_size := ClassDB.class_get_integer_constant(&"GuandanEngine", &"DECK_SIZE")
	var complete := seen.size() == deck_size and seen.values().all(func(n: int) -> bool: return n == 1)
	print("Summary: %d seats, cards per seat %s, %d distinct card ids dealt%s" % [
		hands.size(), sizes, seen.size(), " (each id exactly once)" if complete else ""])
	print("  jokers per seat: %s" % ", ".join(jokers))
	if not complete:
		printerr("deal is not a partition of the two decks!")
	return complete
