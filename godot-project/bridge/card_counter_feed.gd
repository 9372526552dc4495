class_name CardCounterFeed
extends RefCounted
## Keeps the card counter (记牌器) in step with what the table shows: every event is fed, as it
## is shown, to a Rust UnseenCards (the player's hand and the plays of the deal), and the view
## redrawn. The engine is ahead of the table — at a deal's last play it is already in the next
## deal — so the counter is never read from the engine's current position (issue 53), except for
## a position announced whole (Continue, a reconnect), which the engine holds as it announces it.

var counter := UnseenCards.new()
var _view: CardCounterView
var _match: MatchController


func _init(view: CardCounterView, live: MatchController) -> void:
	_view = view
	_match = live


## Feeds one shown event and redraws the counts.
func show_event(e: MatchEvent) -> void:
	if counter.ranks().is_empty():
		_restart()
	if e.restoring:
		_restart()
		counter.take_position(_match.engine)
	elif e is MatchStartedEvent:
		_restart()
	elif e is ViewerChangedEvent:
		counter.start((e as ViewerChangedEvent).seat)
		counter.take_position(_match.engine)
	elif e is DealStartedEvent:
		counter.deal_started((e as DealStartedEvent).level)
	elif e is HandChangedEvent:
		counter.hand_changed((e as HandChangedEvent).hand)
	elif e is CardsPlayedEvent:
		counter.cards_played((e as CardsPlayedEvent).play.cards)
	else:
		return
	redraw()


## Shows the counts kept (nothing before the player's seat is known).
func redraw() -> void:
	_view.show_counts(counter.counts())


func _restart() -> void:
	var seat := _match.local_seat()
	if seat >= 0:
		counter.start(seat)
