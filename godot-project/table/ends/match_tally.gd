class_name MatchTally
extends RefCounted
## What the match's end screen counts, from the typed events the table shows: each deal's
## finishing order (the medals: 头游 … 末游 per seat), the bombs per seat. Seats as the table
## draws them (0 = the player, south). A match continued from a save counts the deals shown since.

## Each deal's finishing order, in the order the deals ended.
var orders: Array[PackedInt32Array] = []
## Bombs played per seat (straight flushes and four jokers are bombs too).
var bombs := PackedInt32Array([0, 0, 0, 0])
## Deals begun (a deal given up part-way began and ends with no finishing order).
var started := 0


## Counts one shown event (TableEvents calls it for every event it shows).
func note(event: MatchEvent) -> void:
	if event is DealStartedEvent:
		started += 1
	elif event is DealEndedEvent:
		orders.append((event as DealEndedEvent).order.duplicate())
	elif event is CardsPlayedEvent:
		var e := event as CardsPlayedEvent
		if e.play != null and e.play.bomb and e.seat >= 0 and e.seat < 4:
			bombs[e.seat] += 1


## Deals played: those finished, and one given up part-way (a surrender in the first deal was
## "0 deals" on the end screen).
func deals() -> int:
	return maxi(orders.size(), started)


## How often `seat` finished in `place` (1 = 头游 … 4 = 末游; a deal ended by a 双下 leaves
## the losers without a 3rd/4th place when they did not go out).
func medals(seat: int, place: int) -> int:
	var n := 0
	for order in orders:
		if order.size() >= place and order[place - 1] == seat:
			n += 1
	return n


## 头游 won by team `team` (0: seats 0 and 2).
func firsts_of_team(team: int) -> int:
	var n := 0
	for order in orders:
		if not order.is_empty() and order[0] % 2 == team:
			n += 1
	return n


## Bombs played by all seats.
func bombs_total() -> int:
	var n := 0
	for b in bombs:
		n += b
	return n
