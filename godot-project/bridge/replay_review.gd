class_name ReplayReview
extends Node
## L3's review (复盘) of the player's seat of a record, made by the extension's DealReviewer on a
## worker thread: `start()`, then `progress`, and `finished` with the typed ReviewSummary (its
## decisions are ReviewedDecision objects) or `failed` with the message.

signal progress(done: int, total: int)
signal finished(summary: ReviewSummary)
signal failed(message: String)

## Worlds a set a decision is valued in (the review's budget; tests use fewer).
var worlds := 48
var _reviewer: DealReviewer


func _ready() -> void:
	_reviewer = DealReviewer.new()
	_reviewer.name = "DealReviewer"
	add_child(_reviewer)
	_reviewer.progress.connect(func(done: int, total: int) -> void: progress.emit(done, total))
	_reviewer.finished.connect(func(s: ReviewSummary) -> void: finished.emit(s))
	_reviewer.failed.connect(func(m: String) -> void: failed.emit(m))


## Reviews `seat` of the record `text` (deal `deal` only when it is 0 or more); false when
## refused at once (`failed` follows).
func start(text: String, seat: int, deal := -1) -> bool:
	if deal >= 0:
		return _reviewer.start_deal(text, seat, deal, worlds, 0)
	return _reviewer.start(text, seat, worlds, 0)


## Reviews `seat` of the saved record `name`, reading back the review kept beside it when it is
## the one asked for (`ReviewSummary.cached`), else reviewing and keeping it.
func start_saved(name: String, seat: int) -> bool:
	return _reviewer.start_saved(name, seat, worlds, 0)


func is_running() -> bool:
	return _reviewer != null and _reviewer.is_running()


## The player's seat of a record: the first seat no AI played (`players()` of a ReplayController),
## else south.
static func player_seat(players: Array) -> int:
	for seat in players.size():
		var p: Dictionary = players[seat] if players[seat] is Dictionary else {}
		if String(p.get("ai", "")) == "":
			return seat
	return 0
