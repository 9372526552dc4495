class_name HandView
extends Control
## The player's hand: the cards fanned at the bottom of the table (HandFan says where), selected
## cards lifted by the style's selected_lift px. Optional grouping view (clusters of bombs,
## straights, triples, pairs, singles, wilds) and manual groups that share a colour bar.
##
## All pointer input goes through a HandInput state machine (tap, drag with the coverage rule,
## long press, double tap, Ctrl-click); what a gesture picks is HandSelection's. While `locked`
## (animations, transitions) input is ignored. The cards themselves are CardViews borrowed from a
## CardLayer (the pool); this node moves them to their places and draws the captions.

## The selection changed (by the player or by code, e.g. a hint).
signal selection_changed(ids: PackedInt32Array)
## Double tap on a card: play the selection.
signal play_requested
## Long press: show grouping options near `at` (this node's coordinates).
signal grouping_requested(at: Vector2)
## The player changed a selection that a hint had made: the hint no longer describes it.
signal hint_dismissed

## The pool the card views come from (set by the owner before use).
var layer: CardLayer
## Level rank of the deal (sort order, level cards, wilds).
var level := 2
## Card height before shrinking (set by the table's layout).
var card_height := 150.0:
	set(v):
		if card_height != v:
			card_height = v
			_relayout()
## Input is ignored while locked (an animation or transition is running).
var locked := false:
	set(v):
		locked = v
		if locked:
			input.cancel()
## Not the player's turn: the cards are never dimmed (grey paper on most frames); the hand sinks
## by TableStyle.waiting_hand_drop instead, and rises again when it is the player's move.
var waiting := false:
	set(v):
		if waiting != v:
			waiting = v
			_relayout(true)
## Grouping view instead of plain rank order.
var group_view := false:
	set(v):
		if group_view != v:
			group_view = v
			_relayout()

var input := HandInput.new()

var _ids := PackedInt32Array()  # display order
var _picks := HandSelection.new()
var _fan := HandFan.new()
var _manual := {}  # id -> manual group tag
var _next_tag := 0
var _marks := CardMarks.new(self)


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_STOP
	input.tapped.connect(_on_tapped)
	input.double_tapped.connect(_on_double_tapped)
	input.long_pressed.connect(_on_long_pressed)
	input.drag_changed.connect(_on_drag_changed)
	input.drag_finished.connect(_on_drag_finished)
	_picks.hint_ended.connect(_on_hint_ended)
	input.coverage = Settings.get_value(&"drag_coverage")
	Settings.changed.connect(_on_setting_changed)
	# Position too, not only size: a live resize can move the hand without resizing it, and the
	# card views (children of the CardLayer) must follow.
	item_rect_changed.connect(_relayout)
	set_process(false)


func _exit_tree() -> void:
	input.cancel()


# --- content -----------------------------------------------------------------------------------

## Shows these cards (any order; they are sorted). Cards no longer in the hand go back to the
## pool; new ones are taken from it and, with `from` set, fly in from that global point.
func set_cards(ids: PackedInt32Array, from := Vector2.INF, stagger := 0.0) -> void:
	var keep := {}
	for id in ids:
		keep[id] = true
	for id in _ids:
		if not keep.has(id):
			_picks.erase(id)
			_manual.erase(id)
			_marks.snap.erase(id)
			layer.release(id)
	var fresh: Array[CardView] = []
	for id in ids:
		if not layer.is_shown(id):
			var view := layer.view_for(id)
			view.level = level
			view.dimmed = false
			fresh.append(view)
			if from != Vector2.INF:
				view.size = _fan.card_size if _fan.card_size != Vector2.ZERO else Vector2(card_height / CardView.ASPECT, card_height)
				view.scale = Vector2.ONE * 0.5
				view.position = layer.to_layer(from) - view.size / 4.0
	_ids = ids.duplicate()
	input.cancel()
	_relayout(from != Vector2.INF, stagger if Settings.animations_on() else 0.0)
	_emit_selection()


## Takes these cards out of the hand without returning them to the pool: the caller (the table)
## now owns their views, e.g. to move them to the centre.
func detach(ids: PackedInt32Array) -> Array[CardView]:
	var out: Array[CardView] = []
	var rest := PackedInt32Array()
	var take := {}
	for id in ids:
		take[id] = true
	for id in _ids:
		if take.has(id):
			var view := layer.find_view(id)
			if view != null:
				view.selected = false
				view.dimmed = false
				view.hinted = false
				view.heat = Color(0, 0, 0, 0)
				view.group_color = Color(0, 0, 0, 0)
				out.append(view)
			_picks.erase(id)
			_manual.erase(id)
			_marks.snap.erase(id)
			if view != null:
				view.glow = 0.0
		else:
			rest.append(id)
	_ids = rest
	input.cancel()
	_relayout(true)
	_emit_selection()
	return out


func cards() -> PackedInt32Array:
	return _ids.duplicate()


func card_count() -> int:
	return _ids.size()


func set_level(value: int) -> void:
	level = value
	for view in _views():
		view.level = value
	_relayout()


## Releases every card to the pool.
func clear() -> void:
	for id in _ids:
		layer.release(id)
	_ids = PackedInt32Array()
	_picks.clear()
	_manual.clear()
	_marks.clear_snap()
	_fan.clear()
	input.cancel()
	queue_redraw()


# --- selection ---------------------------------------------------------------------------------

## The selected cards in display order (left to right).
func selected_ids() -> PackedInt32Array:
	return _picks.in_order(_display_order())


func set_selected(ids: PackedInt32Array) -> void:
	_picks.replace(ids, _ids)
	_refresh_selection()


func clear_selection() -> void:
	_picks.end_hint()
	if _picks.is_empty():
		return
	_picks.clear()
	_refresh_selection()


## Selects a hint's cards and draws the hint border on them; the player's next tap or drag
## starts a new selection instead of adding to the hint.
func set_hint_selection(ids: PackedInt32Array) -> void:
	set_selected(ids)
	set_hinted(ids)
	_picks.from_hint = not ids.is_empty()


## Whether the selection is still the one a hint made.
func is_hint_selection() -> bool:
	return _picks.from_hint


## The player touched a hinted selection: the border goes, listeners forget the hint.
func _on_hint_ended() -> void:
	set_hinted(PackedInt32Array())
	hint_dismissed.emit()


func toggle(id: int) -> void:
	_picks.toggle(id, _ids)
	_refresh_selection()


## Cards drawn with the hint border (training mode).
func set_hinted(ids: PackedInt32Array) -> void:
	_marks.set_hinted(_views(), ids)


## Wild snap: these cards lift half-way and glow (pulsing) until the selection changes.
func set_snap(ids: PackedInt32Array) -> void:
	if _marks.set_snap(ids, _ids, layer):
		_refresh_selection(true)


func snapped_ids() -> PackedInt32Array:
	return PackedInt32Array(_marks.snap.keys())


## Heat map colours by card id (missing = none): drawn as a bar above each card's visible
## strip, never over the face, so a black suit stays black.
func set_heat(colors: Dictionary) -> void:
	_marks.heat = colors.duplicate()
	queue_redraw()


## The heat colour of a card (transparent when none).
func heat_of(id: int) -> Color:
	return _marks.heat.get(id, Color(0, 0, 0, 0))


## Marks the selected cards as one manual group (shared colour); returns its tag, or -1.
func group_selection() -> int:
	var sel := selected_ids()
	if sel.size() < 2:
		return -1
	var tag := _next_tag
	_next_tag += 1
	for id in sel:
		_manual[id] = tag
	_picks.clear()
	_relayout(true)
	_emit_selection()
	return tag


## Removes manual groups (all, or those of the selected cards when there is a selection).
func ungroup() -> void:
	var sel := selected_ids()
	if sel.is_empty():
		_manual.clear()
	else:
		var tags := {}
		for id in sel:
			if _manual.has(id):
				tags[_manual[id]] = true
		for id in _manual.keys():
			if tags.has(_manual[id]):
				_manual.erase(id)
	_relayout(true)


func manual_groups() -> Dictionary:
	return _manual.duplicate()


# --- geometry (also used by tests to aim simulated input) ---------------------------------------

## The card's rectangle in this node's coordinates (unlifted), or an empty Rect2.
func slot_of(id: int) -> Rect2:
	return _fan.slots.get(id, Rect2())


## The visible strip of a card: the part not covered by the next card.
func visible_rect_of(id: int) -> Rect2:
	var i := _ids.find(id)
	if i < 0:
		return Rect2()
	var order := _display_order()
	var k := order.find(id)
	var s := Vector2(input.strips[k].x, input.strips[k].y)
	var slot := slot_of(id)
	return Rect2(s.x, slot.position.y, s.y - s.x, slot.size.y)


## Ids in the order they are shown left to right.
func display_order() -> PackedInt32Array:
	return _display_order()


func card_size() -> Vector2:
	return _fan.card_size


## The card height a hand of `n` cards gets in `width` (see HandFan; the table sizes the hand's
## box with it).
static func fitted_card_height(wanted: float, width: float, n: int) -> float:
	return HandFan.fitted_card_height(wanted, width, n)


# --- layout --------------------------------------------------------------------------------------

func _display_order() -> PackedInt32Array:
	return HandFan.display_order(_ids, level, _manual, group_view)


func _relayout(animate := false, stagger := 0.0) -> void:
	if not is_inside_tree() or layer == null:
		return
	var clusters := HandFan.clusters(_ids, level, _manual, group_view)
	var order := _fan.lay_out(clusters, size, card_height, lift(), group_view, input)
	_apply(order, animate, stagger)
	queue_redraw()


func _apply(order: PackedInt32Array, animate: bool, stagger := 0.0) -> void:
	var origin := layer.to_layer(global_position)
	var t := Settings.anim_time(0.18) if animate else 0.0
	for i in order.size():
		var id := order[i]
		var view := layer.find_view(id)
		if view == null:
			continue
		var slot: Rect2 = _fan.slots[id]
		var target := origin + slot.position - Vector2(0, _lift(id) - _drop())
		view.z_index = i
		view.level = level
		view.group_color = HandFan.manual_color(_manual[id]) if _manual.has(id) else Color(0, 0, 0, 0)
		view.selected = _shown_selected(id)
		if t > 0.0 and view.visible:
			# Size is set at once (a size tween redraws every frame); scale eases a card that
			# arrives with another size (dealt, or back from elsewhere).
			var delay := stagger * i
			var start_scale := view.size.x * view.scale.x / slot.size.x if view.size.x > 0.0 else 0.7
			view.size = slot.size
			view.scale = Vector2.ONE * clampf(start_scale, 0.3, 2.0)
			view.new_tween().set_parallel(true)
			view.tween.tween_property(view, "position", target, t).set_trans(Tween.TRANS_CUBIC) \
					.set_ease(Tween.EASE_OUT).set_delay(delay)
			view.tween.tween_property(view, "scale", Vector2.ONE, t).set_delay(delay)
		else:
			view.stop_tween()
			view.size = slot.size
			view.scale = Vector2.ONE
			view.position = target


func _refresh_selection(force := false) -> void:
	var origin := layer.to_layer(global_position) if layer != null else Vector2.ZERO
	for id in _ids:
		var view := layer.find_view(id)
		if view == null or not _fan.slots.has(id):
			continue
		var sel := _shown_selected(id)
		if view.selected != sel or force:
			view.selected = sel
			var target: Vector2 = origin + _fan.slots[id].position - Vector2(0, _lift(id) - _drop())
			var t := Settings.anim_time(0.08)
			if t > 0.0:
				# The new tween replaces one that may still be easing the card to its size (the
				# hand relaid out): it finishes that too, or the card stays at the size it had.
				view.new_tween().set_parallel(true)
				view.tween.tween_property(view, "position", target, t)
				if not view.scale.is_equal_approx(Vector2.ONE):
					view.tween.tween_property(view, "scale", Vector2.ONE, t)
			else:
				view.stop_tween()
				view.position = target
				view.scale = Vector2.ONE
	_emit_selection()


## Pixels a selected card rises (the CardStyle's selected_lift).
static func lift() -> float:
	return CardStyle.current().selected_lift


## Pixels the whole hand sinks while the player waits (selected cards keep their lift above it).
func _drop() -> float:
	return TableStyle.current().waiting_hand_drop if waiting else 0.0


## How far a card is above its resting place now (its lift minus the waiting drop), for tests.
func card_offset(id: int) -> float:
	return _lift(id) - _drop()


func _lift(id: int) -> float:
	if _shown_selected(id):
		return lift()
	return lift() / 2.0 if _marks.snap.has(id) else 0.0


func _shown_selected(id: int) -> bool:
	return _picks.shown(id)


func _emit_selection() -> void:
	selection_changed.emit(selected_ids())


func _views() -> Array[CardView]:
	var out: Array[CardView] = []
	if layer == null:
		return out
	for id in _ids:
		var v := layer.find_view(id)
		if v != null:
			out.append(v)
	return out


func _draw() -> void:
	_fan.draw_labels(self)
	if not _marks.heat.is_empty():
		_marks.draw_heat(self, _display_order(), input.strips)


## Global rectangles of the grouping view's labels (layout tests).
func label_rects() -> Array[Rect2]:
	return _fan.label_rects(self)


# --- input -----------------------------------------------------------------------------------------

func _gui_input(event: InputEvent) -> void:
	if locked:
		return
	var now := Time.get_ticks_msec()
	if event is InputEventMouseButton and event.button_index == MOUSE_BUTTON_RIGHT and event.pressed:
		clear_selection()  # right-click anywhere on the hand clears the selection
		accept_event()
		return
	if event is InputEventMouseButton and event.button_index == MOUSE_BUTTON_LEFT:
		if event.pressed:
			input.press(event.position, now, event.ctrl_pressed or event.meta_pressed)
			set_process(input.is_busy())
		else:
			input.release(event.position, now)
			set_process(false)
		accept_event()
	elif event is InputEventMouseMotion and input.is_busy():
		input.motion(event.position, now)
		accept_event()


func _process(_delta: float) -> void:
	if locked or not input.is_busy():
		set_process(false)
		return
	input.tick(Time.get_ticks_msec())


func _notification(what: int) -> void:
	if what == NOTIFICATION_MOUSE_EXIT and input.state == HandInput.State.TOUCH_DOWN:
		pass  # a press may leave the hand while dragging; the drag goes on
	elif what == NOTIFICATION_TRANSLATION_CHANGED:
		_relayout()


func _id_at(index: int) -> int:
	var order := _display_order()
	return order[index] if index >= 0 and index < order.size() else -1


func _on_tapped(index: int, additive: bool) -> void:
	var id := _id_at(index)
	if id < 0:
		return
	_picks.tap(id, additive, _ids)
	_refresh_selection()


func _on_double_tapped(index: int) -> void:
	var id := _id_at(index)
	if id >= 0 and not _picks.has(id):
		_picks.add(id)
		_refresh_selection()
	play_requested.emit()


func _on_long_pressed(index: int) -> void:
	var id := _id_at(index)
	var at := slot_of(id).get_center() if id >= 0 else size / 2.0
	grouping_requested.emit(at)


func _on_drag_changed(indices: PackedInt32Array, start_index: int) -> void:
	_picks.drag(_ids_at(indices), _id_at(start_index), input.is_additive())
	_refresh_selection()


func _on_drag_finished(indices: PackedInt32Array, _start_index: int) -> void:
	_picks.finish_drag(_ids_at(indices))
	_refresh_selection()


func _ids_at(indices: PackedInt32Array) -> PackedInt32Array:
	var out := PackedInt32Array()
	for i in indices:
		out.append(_id_at(i))
	return out


func _on_setting_changed(key: StringName, value: Variant) -> void:
	if key == &"drag_coverage":
		input.coverage = value
	elif key == &"card_size" or key == &"high_contrast_cards":
		_relayout(true)
