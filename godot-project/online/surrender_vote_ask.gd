class_name SurrenderVoteAsk
extends Node
## A surrender vote asked of this player (the partner's proposal, or the opponents'), in the
## online table's vote dialog, answered "keep playing" by itself if the player does not answer.
## While the player's own turn clock runs (the vote asked on their turn, or their turn coming while
## it is open) the server's clock runs on behind the dialog: the dialog shows that clock, live,
## and answers "keep playing" CLOCK_MARGIN_S before the turn ends, its button counting down to
## then (issue 52: the partner's dialog hid the last seconds of a lead, which was played for the
## player). Otherwise it answers after VOTE_SECONDS.

## Seconds a player has to answer a vote before it counts as "keep playing".
const VOTE_SECONDS := 20.0
## The dialog answers this long before the player's turn clock ends.
const CLOCK_MARGIN_S := 5.0
## The button the dialog presses by itself.
const KEEP_PLAYING := &"no"

## The dialog (the online table's SurrenderVote modal).
var modal: Modal
## Seconds left on the player's own turn clock, -1.0 when none runs (the table's clock).
var turn_left: Callable
## The time in seconds (ticks; tests give their own).
var now_s: Callable = func() -> float: return Time.get_ticks_msec() / 1000.0
## The dialog's line with the turn clock's seconds (hidden while no clock runs).
var _clock_line: Label
var _keep_label := ""
var _asked_at := 0.0


func _init(dialog: Modal, clock: Callable) -> void:
	modal = dialog
	turn_left = clock
	name = "SurrenderVoteAsk"
	set_process(false)


## Opens the dialog; returns the choice (&"yes", &"no", or whatever else closed the dialog). With
## the player's turn clock already under CLOCK_MARGIN_S the turn comes first: "keep playing" at
## once, no dialog.
func ask(title: String, text: String, buttons: Array) -> StringName:
	var left: float = turn_left.call()
	if left >= 0.0 and left < CLOCK_MARGIN_S:
		return KEEP_PLAYING
	_clock_line = modal.text_line("")
	modal.open(title, [text, _clock_line], buttons)
	_asked_at = float(now_s.call())
	var keep := modal.button(KEEP_PLAYING)
	keep.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_keep_label = tr(keep.text)
	_follow_clock(false)
	set_process(true)
	var choice: StringName = await modal.closed
	set_process(false)
	_clock_line = null
	return choice


## Whether the open dialog shows the player's turn clock (the session's invariants ask).
func shows_clock() -> bool:
	return modal.is_open() and _clock_line != null and _clock_line.visible


## The seconds the dialog's clock line shows (-1: none).
func shown_seconds() -> int:
	return int(_clock_line.get_meta(&"seconds", -1)) if shows_clock() else -1


func _process(_delta: float) -> void:
	if _clock_line == null or not modal.is_open():
		set_process(false)
		return
	_follow_clock(true)


## The clock line and the "keep playing" button follow the vote's time and the turn's clock;
## when either is up the dialog answers "keep playing" (`may_answer`: not while `ask` opens it).
func _follow_clock(may_answer: bool) -> void:
	var left: float = turn_left.call()
	var remaining := VOTE_SECONDS - (float(now_s.call()) - _asked_at)
	_clock_line.visible = left >= 0.0
	if left >= 0.0:
		remaining = minf(remaining, left - CLOCK_MARGIN_S)
		_clock_line.set_meta(&"seconds", ceili(left))
		_clock_line.text = tr("PAUSE_CLOCK_LEFT_FMT").format({s = ceili(left)})
	if remaining <= 0.0 and may_answer:
		set_process(false)
		modal.press(KEEP_PLAYING)
		return
	var keep := modal.button(KEEP_PLAYING)
	if keep != null:
		keep.text = "%s (%d)" % [_keep_label, maxi(ceili(remaining), 0)]
