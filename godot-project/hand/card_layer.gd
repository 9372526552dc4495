class_name CardLayer
extends Control
## The pool and the layer of every face-up card on the table (the player's hand, the plays in the
## centre, cards in flight, open hands in replays). Each card id has at most one CardView, so a
## match never needs more than 108 nodes: they are created on first use and reused for the rest of
## the match — dealing again creates none. Free views stay children (hidden), so nothing is ever
## orphaned, and a card moving from the hand to the centre is the same node, which is what makes
## the animations continuous.
##
## Hidden hands (opponents, partner) never get per-card nodes: the table shows a card back and a
## count for them.

const MAX_CARDS := 108
## Every card is an instance of this scene (a designer can edit it; its script draws the card).
const CARD_SCENE := preload("res://hand/card_view.tscn")

## CardViews ever created by this layer (the proof that a deal reuses nodes).
var created_count := 0

var _by_id := {}  # card id -> CardView in use
var _free: Array[CardView] = []


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE


## Creates free views up to `count` in total (the table does it once per match, before the first
## deal, so no deal ever creates card nodes).
func prewarm(count := MAX_CARDS) -> void:
	while created_count < mini(count, MAX_CARDS):
		var view := _new_view()
		view.visible = false
		created_count += 1
		add_child(view)
		_free.append(view)


func _new_view() -> CardView:
	var view: CardView = CARD_SCENE.instantiate()
	view.name = "Card%d" % created_count
	view.card_id = -1
	return view


## The view showing `id`, taken from the pool when it is not shown yet.
func view_for(id: int) -> CardView:
	var view: CardView = _by_id.get(id)
	if view != null:
		return view
	if _free.is_empty():
		view = _new_view()
		created_count += 1
		if created_count > MAX_CARDS:
			push_warning("CardLayer: more than %d card views" % MAX_CARDS)
		add_child(view)
	else:
		view = _free.pop_back()
	view.reset()
	view.card_id = id
	view.shadow = not Settings.get_value(&"low_perf")
	_by_id[id] = view
	return view


## The view of `id` if it is shown, else null.
func find_view(id: int) -> CardView:
	return _by_id.get(id)


func is_shown(id: int) -> bool:
	return _by_id.has(id)


## Hides the card and returns its view to the pool.
func release(id: int) -> void:
	var view: CardView = _by_id.get(id)
	if view == null:
		return
	_by_id.erase(id)
	view.stop_tween()
	view.visible = false
	view.card_id = -1
	_free.append(view)


func release_all() -> void:
	for id in _by_id.keys():
		release(id)


func in_use_count() -> int:
	return _by_id.size()


## Layer coordinates of a point given in global canvas coordinates.
func to_layer(global_point: Vector2) -> Vector2:
	return get_global_transform().affine_inverse() * global_point
