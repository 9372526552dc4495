extends Node
## Headless play: a whole seeded match of four AI seats through the game's MatchController (and so
## GuandanEngine), printed as it goes.
## Run through `tools/play --headless [--seed N] [--level L] [--rules NAME]`, which does
##   tools/godot --headless --path godot-project res://tools/headless_play.tscn -- --seed N
## after importing the project. It runs as a scene, not with `--script`: a `--script` main loop
## has no autoloads, so game scripts that name one (the MatchController names `Online`) do not
## compile there; as a scene it runs in the same tree as the game.
##
## The script knows no rule: it starts the match and prints the events the controller forwards
## (each deal's result, then the match result), the way the game's table scene does. Exit code:
## 0 ok, 1 engine problem (or the match did not end in time), 2 bad arguments.

const SEAT_NAMES: Array[String] = ["South", "East", "North", "West"]
const LEVEL_NAMES := ["", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
const USAGE := "usage: headless_play.gd -- [--seed N] [--level 1|2|3] [--rules competition|huaian|house] [--verbose]"
## Give up (exit 1) if the match has not ended after this many seconds.
const TIME_LIMIT_S := 120.0

var _controller: MatchController
var _options := {}
var _started_usec := 0
var _plays := 0
var _exit_code := -1


func _ready() -> void:
	var code := start(OS.get_cmdline_user_args())
	if code >= 0:
		_exit_code = code
		get_tree().quit(code)


func _process(_delta: float) -> void:
	if _exit_code >= 0:
		return
	if _controller != null and (Time.get_ticks_usec() - _started_usec) / 1e6 > TIME_LIMIT_S:
		printerr("the match did not end within %d s" % TIME_LIMIT_S)
		_finish(1)


## Starts the match; returns an exit code if it cannot start, -1 when it runs.
func start(args: PackedStringArray) -> int:
	_options = parse_args(args)
	if _options.has("error"):
		printerr(_options.error)
		printerr(USAGE)
		return 2
	_controller = MatchController.new()
	_controller.event_received.connect(_on_event)
	add_child(_controller)
	var level: int = _options.level
	print("Guandan headless play, %s, seed %d, rules %s, four AI seats at level %d" % [
		MatchController.engine_version(), _options.seed, _options.rules, level])
	_started_usec = Time.get_ticks_usec()
	var code := _controller.start(MatchConfig.with({all_ai = true, human_seat_level = level,
		ai_levels = [level, level, level], seed = _options.seed, rules = _options.rules, ai_min_think_ms = 0,
		turn_timer = 0, ai_frame_budget_ms = 12.0, save_record = false}))
	if code != 0:
		printerr("start_match failed with code %d: %s" % [code, _controller.last_error()])
		return 1
	return -1


## {"seed", "level", "rules", "verbose"} from the command line, or {"error": message}.
## Static so tests can call it.
static func parse_args(args: PackedStringArray) -> Dictionary:
	var options := {"seed": 1, "level": 2, "rules": "competition", "verbose": false}
	var i := 0
	while i < args.size():
		var arg := args[i]
		if arg == "--verbose":
			options.verbose = true
			i += 1
			continue
		var key := ""
		var value := ""
		for name in ["seed", "level", "rules"]:
			if arg == "--" + name and i + 1 < args.size():
				key = name
				i += 1
				value = args[i]
			elif arg.begins_with("--%s=" % name):
				key = name
				value = arg.trim_prefix("--%s=" % name)
		if key == "":
			return {"error": "unknown or incomplete argument: %s" % arg}
		match key:
			"seed":
				var seed: Variant = parse_int64(value)
				if seed == null:
					return {"error": "--seed needs a 64-bit integer, got %s" % var_to_str(value)}
				options.seed = seed
			"level":
				if value not in ["1", "2", "3"]:
					return {"error": "--level needs 1, 2 or 3, got %s" % var_to_str(value)}
				options.level = value.to_int()
			"rules":
				if value not in ["competition", "huaian", "house"]:
					return {"error": "--rules needs competition, huaian or house, got %s" % var_to_str(value)}
				options.rules = value
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


static func level_name(level: int) -> String:
	return LEVEL_NAMES[level] if level >= 2 and level < LEVEL_NAMES.size() else str(level)


## Prints the events a reader of the log cares about.
func _on_event(event: MatchEvent) -> void:
	if event is DealStartedEvent:
		var e := event as DealStartedEvent
		_on_deal_started(e.deal_no, e.level, e.declarer)
	elif event is TributePhaseEvent:
		var e := event as TributePhaseEvent
		var names := Array(e.payers).map(func(s: int) -> String: return SEAT_NAMES[s])
		print("  tribute due from %s%s" % [", ".join(names),
			": resisted (they hold both big jokers)" if e.resisted else ""])
	elif event is TributeGivenEvent:
		var e := event as TributeGivenEvent
		print("  tribute %s -> %s: %s" % [SEAT_NAMES[e.from], SEAT_NAMES[e.to], Cards.notation(e.card)])
	elif event is CardReturnedEvent:
		var e := event as CardReturnedEvent
		print("  return  %s -> %s: %s" % [SEAT_NAMES[e.from], SEAT_NAMES[e.to], Cards.notation(e.card)])
	elif event is CardsPlayedEvent:
		var e := event as CardsPlayedEvent
		_plays += 1
		if _options.verbose:
			print("  %-5s %-22s %s" % [SEAT_NAMES[e.seat], e.play.text, Cards.notation_list(e.play.cards)])
	elif event is PlayerFinishedEvent:
		var e := event as PlayerFinishedEvent
		if _options.verbose:
			print("  %s goes out, place %d" % [SEAT_NAMES[e.seat], e.place])
	elif event is DealEndedEvent:
		var e := event as DealEndedEvent
		_on_deal_ended(e.order, e.level_changes)
	elif event is MatchEndedEvent:
		var e := event as MatchEndedEvent
		_on_match_ended(e.winner_team, e.reason)
	elif event is ErrorEvent:
		var e := event as ErrorEvent
		printerr("engine error %d: %s" % [e.code, e.message])
		_finish(1)


func _on_deal_started(deal_no: int, level: int, declarer: int) -> void:
	var team := "team %d's level" % declarer if declarer >= 0 else "first deal"
	print("Deal %d at %s (%s)" % [deal_no + 1, level_name(level), team])
	if _options.verbose:
		for seat in 4:
			print("  %-5s %s" % [SEAT_NAMES[seat], Cards.notation_list(_controller.seat_hand(seat))])


func _on_deal_ended(order: PackedInt32Array, level_changes: LevelChange) -> void:
	var names := Array(order).map(func(s: int) -> String: return SEAT_NAMES[s])
	var before: PackedInt32Array = level_changes.before
	var after: PackedInt32Array = level_changes.after
	print("  order %s; team %d wins the deal; levels %s/%s -> %s/%s" % [" ".join(names),
		level_changes.winner_team, level_name(before[0]), level_name(before[1]),
		level_name(after[0]), level_name(after[1])])


func _on_match_ended(winner_team: int, reason: String) -> void:
	var seconds := (Time.get_ticks_usec() - _started_usec) / 1e6
	var st := _controller.state()
	var levels := st.team_levels
	var result := "draw" if winner_team < 0 else "team %d (%s) wins" % [winner_team,
		" & ".join([SEAT_NAMES[winner_team], SEAT_NAMES[winner_team + 2]])]
	print("Match over after %d deals, %d actions, %d plays: %s (%s); levels %s/%s" % [
		st.deal_no + 1, _controller.action_count(), _plays, result, reason,
		level_name(levels[0]), level_name(levels[1])])
	print("state hash %s; %.2f s" % [_controller.state_hash(), seconds])
	_finish(0)


func _finish(code: int) -> void:
	if _exit_code >= 0:
		return
	_exit_code = code
	_controller.queue_free()
	get_tree().quit(code)
