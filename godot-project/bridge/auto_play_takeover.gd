class_name AutoPlayTakeover
extends RefCounted
## The timeout policy of the live match: after the config's `auto_play_after_timeouts` turn
## timeouts of the local player in a row (0 = never), the AI takes the seat over (auto-play, 托管);
## any action of the player's own breaks the run. Reached as `MatchController.takeover`.

## The local player's turn timeouts in a row.
var timeouts_in_a_row := 0
var _match: MatchController


func _init(live: MatchController) -> void:
	_match = live


## The player acted (an action's engine code): a successful one breaks the run. Returns `code`.
func acted(code: int) -> int:
	if code == GuandanEngine.OK:
		timeouts_in_a_row = 0
	return code


## A seat's clock ran out: the local player's count; at the limit auto-play goes on.
func timed_out(e: TurnTimedOutEvent) -> void:
	if e.seat != _match.local_seat():
		return
	timeouts_in_a_row += 1
	var engine: GuandanEngine = _match.engine
	var limit := _match.config.auto_play_after_timeouts if _match.config != null else 0
	if limit > 0 and timeouts_in_a_row >= limit and not engine.is_auto_play():
		engine.set_auto_play(true)
