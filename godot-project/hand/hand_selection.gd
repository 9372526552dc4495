class_name HandSelection
extends RefCounted
## Which of the player's cards are picked, and how taps, drags and hints change that: a tap
## toggles (Ctrl adds), a drag paints a run (selecting, or unselecting when it starts on a
## picked card), and a hint's selection is replaced by the next tap or drag rather than added to.
## Only ids; HandView moves the cards and tells the table.

## The player touched a hinted selection: the hint no longer describes it.
signal hint_ended

var _picked := {}  # id -> true
var _drag_run := {}  # id -> true while a drag is previewed
var _drag_paint := true  # a drag selects (true) or unselects (false)
## The selection is the one a hint made and the player has not touched it.
var from_hint := false


func has(id: int) -> bool:
	return _picked.has(id)


func is_empty() -> bool:
	return _picked.is_empty()


## Whether the card is drawn picked now (a drag in progress shows its run as it will end).
func shown(id: int) -> bool:
	if _drag_run.has(id):
		return _drag_paint
	return _picked.has(id)


## The picked ids among `order`, in that order.
func in_order(order: PackedInt32Array) -> PackedInt32Array:
	var out := PackedInt32Array()
	for id in order:
		if _picked.has(id):
			out.append(id)
	return out


func add(id: int) -> void:
	_picked[id] = true


func erase(id: int) -> void:
	_picked.erase(id)


func clear() -> void:
	_picked.clear()


## Picks `ids` that are in `hand` instead of the selection.
func replace(ids: PackedInt32Array, hand: PackedInt32Array) -> void:
	_picked.clear()
	for id in ids:
		if id in hand:
			_picked[id] = true


func toggle(id: int, hand: PackedInt32Array) -> void:
	if _picked.has(id):
		_picked.erase(id)
	elif id in hand:
		_picked[id] = true


## The player touched a hinted selection: forget the hint.
func end_hint() -> void:
	if not from_hint:
		return
	from_hint = false
	hint_ended.emit()


## A tap on a card (`additive`: with Ctrl, only adds).
func tap(id: int, additive: bool, hand: PackedInt32Array) -> void:
	if from_hint and not additive:
		# A tap on a hinted card takes it out of the hint; any other card starts afresh.
		var keep := _picked.has(id)
		end_hint()
		if not keep:
			_picked.clear()
		toggle(id, hand)
		return
	end_hint()
	if additive:
		_picked[id] = true
	else:
		toggle(id, hand)


## A drag covers `run` so far, from the card `start_id`.
func drag(run: PackedInt32Array, start_id: int, additive: bool) -> void:
	if from_hint and not additive:
		end_hint()
		_picked.clear()
	_drag_paint = additive or not _picked.has(start_id)
	_drag_run.clear()
	for id in run:
		_drag_run[id] = true


## The drag ended over `run`: its cards are picked (or unpicked) for good.
func finish_drag(run: PackedInt32Array) -> void:
	for id in run:
		if _drag_paint:
			_picked[id] = true
		else:
			_picked.erase(id)
	_drag_run.clear()
