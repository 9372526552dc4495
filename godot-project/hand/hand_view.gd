class_name HandView
extends Control
## The player's hand: sorted by rank then suit, fanned with the CardStyle's overlap range (50–65 %
## by default) and centred; selected cards lift by the style's selected_lift px. Above 20 cards spacing and size shrink so 27 (28 after tribute) stay
## visible. Optional grouping view (clusters of bombs, straights, triples, pairs, singles, wilds)
## and manual groups that share a colour bar.
##
## All pointer input goes through a HandInput state machine (tap, drag with the coverage rule,
## long press, double tap, Ctrl-click). While `locked` (animations, transitions) input is ignored.
## The cards themselves are CardViews borrowed from a CardLayer (the pool); this node only lays
## them out and owns the selection.

## The selection changed (by the player or by code, e.g. a hint).
signal selection_changed(ids: PackedInt32Array)
## Double tap on a card: play the selection.
signal play_requested
## Long press: show grouping options near `at` (this node's coordinates).
signal grouping_requested(at: Vector2)
## The player changed a selection that a hint had made: the hint no longer describes it.
signal hint_dismissed

const GROUP_GAP := 0.28  # gap between clusters in the grouping view, in card widths
const GROUP_COLORS: Array[Color] = [Color(0.2, 0.75, 0.4), Color(0.95, 0.5, 0.1),
	Color(0.65, 0.35, 0.95), Color(0.1, 0.7, 0.85), Color(0.9, 0.3, 0.55)]

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
var _selected := {}  # id -> true
var _manual := {}  # id -> manual group tag
var _next_tag := 0
var _slots := {}  # id -> Rect2 (local, unlifted)
var _labels: Array[Dictionary] = []  # grouping view captions: {text, pos}
var _drag_run := {}  # id -> true while a drag is previewed
var _drag_paint := true  # a drag selects (true) or unselects (false)
var _card_size := Vector2.ZERO
var _snap := {}  # id -> true: wilds lifted and glowing (wild snap)
var _snap_tween: Tween
## The selection is the one a hint made (set_hint_selection) and the player has not touched it.
var _from_hint := false
var _heat := {}  # id -> heat map colour


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_STOP
	input.tapped.connect(_on_tapped)
	input.double_tapped.connect(_on_double_tapped)
	input.long_pressed.connect(_on_long_pressed)
	input.drag_changed.connect(_on_drag_changed)
	input.drag_finished.connect(_on_drag_finished)
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
			_selected.erase(id)
			_manual.erase(id)
			_snap.erase(id)
			layer.release(id)
	var fresh: Array[CardView] = []
	for id in ids:
		if not layer.is_shown(id):
			var view := layer.view_for(id)
			view.level = level
			view.dimmed = false
			fresh.append(view)
			if from != Vector2.INF:
				view.size = _card_size if _card_size != Vector2.ZERO else Vector2(card_height / CardView.ASPECT, card_height)
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
			_selected.erase(id)
			_manual.erase(id)
			_snap.erase(id)
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
	_selected.clear()
	_manual.clear()
	_snap.clear()
	if _snap_tween != null:
		_snap_tween.kill()
		_snap_tween = null
	_slots.clear()
	_labels.clear()
	input.cancel()
	queue_redraw()


# --- selection ---------------------------------------------------------------------------------

## The selected cards in display order (left to right).
func selected_ids() -> PackedInt32Array:
	var out := PackedInt32Array()
	for id in _display_order():
		if _selected.has(id):
			out.append(id)
	return out


func set_selected(ids: PackedInt32Array) -> void:
	_selected.clear()
	for id in ids:
		if id in _ids:
			_selected[id] = true
	_refresh_selection()


func clear_selection() -> void:
	_end_hint()
	if _selected.is_empty():
		return
	_selected.clear()
	_refresh_selection()


## Selects a hint's cards and draws the hint border on them; the player's next tap or drag
## starts a new selection instead of adding to the hint.
func set_hint_selection(ids: PackedInt32Array) -> void:
	set_selected(ids)
	set_hinted(ids)
	_from_hint = not ids.is_empty()


## Whether the selection is still the one a hint made.
func is_hint_selection() -> bool:
	return _from_hint


## The player touched a hinted selection: the border goes, listeners forget the hint.
func _end_hint() -> void:
	if not _from_hint:
		return
	_from_hint = false
	set_hinted(PackedInt32Array())
	hint_dismissed.emit()


func toggle(id: int) -> void:
	if _selected.has(id):
		_selected.erase(id)
	elif id in _ids:
		_selected[id] = true
	_refresh_selection()


## Cards drawn with the hint border (training mode).
func set_hinted(ids: PackedInt32Array) -> void:
	var wanted := {}
	for id in ids:
		wanted[id] = true
	for view in _views():
		view.hinted = wanted.has(view.card_id)


## Wild snap: these cards lift half-way and glow (pulsing) until the selection changes.
func set_snap(ids: PackedInt32Array) -> void:
	var wanted := {}
	for id in ids:
		if id in _ids:
			wanted[id] = true
	if wanted.keys() == _snap.keys():
		return
	if _snap_tween != null:
		_snap_tween.kill()
		_snap_tween = null
	for id in _snap:
		var v := layer.find_view(id)
		if v != null:
			v.glow = 0.0
	_snap = wanted
	if not _snap.is_empty():
		var views: Array[CardView] = []
		for id in _snap:
			var v := layer.find_view(id)
			if v != null:
				v.glow = 1.0
				views.append(v)
		if Settings.effects_on() and not views.is_empty():
			_snap_tween = create_tween().set_loops().set_parallel(true)
			for v in views:
				_snap_tween.tween_property(v, "glow", 0.35, 0.45).set_trans(Tween.TRANS_SINE)
			_snap_tween.chain()
			for v in views:
				_snap_tween.tween_property(v, "glow", 1.0, 0.45).set_trans(Tween.TRANS_SINE)
	_refresh_selection(true)


func snapped_ids() -> PackedInt32Array:
	return PackedInt32Array(_snap.keys())


## Heat map colours by card id (missing = none): drawn as a bar above each card's visible
## strip, never over the face, so a black suit stays black.
func set_heat(colors: Dictionary) -> void:
	_heat = colors.duplicate()
	queue_redraw()


## The heat colour of a card (transparent when none).
func heat_of(id: int) -> Color:
	return _heat.get(id, Color(0, 0, 0, 0))


## Marks the selected cards as one manual group (shared colour); returns its tag, or -1.
func group_selection() -> int:
	var sel := selected_ids()
	if sel.size() < 2:
		return -1
	var tag := _next_tag
	_next_tag += 1
	for id in sel:
		_manual[id] = tag
	_selected.clear()
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
	return _slots.get(id, Rect2())


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
	return _card_size


## The card height a hand of `n` cards gets in `width` (rank view), from its wanted height: the
## same shrinking as the layout below. The table sizes the hand's box with it, so a full hand on
## a narrow screen leaves no empty band above the cards.
static func fitted_card_height(wanted: float, width: float, n: int) -> float:
	var avail := maxf(width - 24.0, 100.0)
	var ch := wanted
	if n > 20:
		ch *= 1.0 - 0.15 * (minf(n, 28) - 20.0) / 8.0
	var cw := ch / CardView.ASPECT
	var units := (n - 1) * CardStyle.current().min_visible + 1.0
	if cw * units > avail:
		ch = avail / units * CardView.ASPECT
	return ch


# --- layout --------------------------------------------------------------------------------------

func _display_order() -> PackedInt32Array:
	var out := PackedInt32Array()
	for group in _clusters():
		out.append_array(group.ids)
	return out


func _clusters() -> Array[Dictionary]:
	if group_view:
		return HandGroups.groups(_ids, level, _manual)
	# Rank view: one cluster, manual groups kept together at the left.
	if _manual.is_empty():
		return [{kind = &"all", ids = Cards.sorted(_ids, level), tag = 0}]
	var out: Array[Dictionary] = []
	for g in HandGroups.groups(_ids, level, _manual):
		if g.kind == &"manual":
			out.append(g)
	var rest := PackedInt32Array()
	for id in Cards.sorted(_ids, level):
		if not _manual.has(id):
			rest.append(id)
	if not rest.is_empty():
		out.append({kind = &"all", ids = rest, tag = 0})
	return out


func _relayout(animate := false, stagger := 0.0) -> void:
	if not is_inside_tree() or layer == null:
		return
	var clusters := _clusters()
	var n := 0
	for g in clusters:
		n += g.ids.size()
	var gaps := maxi(clusters.size() - 1, 0)
	_slots.clear()
	_labels.clear()
	input.strips.clear()
	var margin := 12.0
	var avail := maxf(size.x - 2.0 * margin, 100.0)
	var st := CardStyle.current()
	var ch := minf(card_height, size.y - lift() - 8.0)
	if n > 20:
		ch *= 1.0 - 0.15 * (minf(n, 28) - 20.0) / 8.0
	var cw := ch / CardView.ASPECT
	# Each cluster shows its last card whole, then a gap: width = (n - nk) steps + nk cards +
	# (nk - 1) gaps for nk clusters.
	var nk := maxi(clusters.size(), 1)
	var units_min := (n - nk) * st.min_visible + nk + gaps * GROUP_GAP
	if cw * units_min > avail:
		cw = avail / units_min
		ch = cw * CardView.ASPECT
	var step := cw * st.max_visible
	if n > nk:
		step = clampf((avail - nk * cw - gaps * GROUP_GAP * cw) / (n - nk), cw * st.min_visible, cw * st.max_visible)
	_card_size = Vector2(cw, ch)
	var total := (n - nk) * step + nk * cw + gaps * GROUP_GAP * cw
	var x := (size.x - total) / 2.0
	var base_y := size.y - ch - 6.0
	var order := PackedInt32Array()
	var xs: Array[float] = []
	for gi in clusters.size():
		var g: Dictionary = clusters[gi]
		if group_view or g.kind == &"manual":
			var key := "GROUP_" + String(g.kind).to_upper()
			_labels.append({text = tr(key), pos = Vector2(x, base_y - lift() - 4.0), color = _group_color(g)})
		var group_ids: PackedInt32Array = g.ids
		for k in group_ids.size():
			var id: int = group_ids[k]
			var t := ((x + cw / 2.0) - size.x / 2.0) / maxf(size.x / 2.0, 1.0)
			var y := base_y + ch * 0.05 * t * t
			_slots[id] = Rect2(x, y, cw, ch)
			order.append(id)
			xs.append(x)
			var last_in_group := k == group_ids.size() - 1
			x += (cw * (1.0 + GROUP_GAP) if gi < clusters.size() - 1 else cw) if last_in_group else step
	for i in order.size():
		var from := xs[i]
		var to := xs[i + 1] if i + 1 < order.size() else from + cw
		to = minf(to, from + cw)
		input.strips.append(Vector2(from, to))
	input.band = Vector2(base_y - lift() - 4.0, size.y)
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
		var slot: Rect2 = _slots[id]
		var target := origin + slot.position - Vector2(0, _lift(id) - _drop())
		view.z_index = i
		view.level = level
		view.group_color = GROUP_COLORS[_manual[id] % GROUP_COLORS.size()] if _manual.has(id) else Color(0, 0, 0, 0)
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
		if view == null or not _slots.has(id):
			continue
		var sel := _shown_selected(id)
		if view.selected != sel or force:
			view.selected = sel
			var target: Vector2 = origin + _slots[id].position - Vector2(0, _lift(id) - _drop())
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
	return lift() / 2.0 if _snap.has(id) else 0.0


func _shown_selected(id: int) -> bool:
	if _drag_run.has(id):
		return _drag_paint
	return _selected.has(id)


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


func _group_color(g: Dictionary) -> Color:
	if g.kind == &"manual":
		return GROUP_COLORS[int(g.tag) % GROUP_COLORS.size()]
	return Color(1, 1, 1, 0.85)


func _draw() -> void:
	var font := get_theme_font(&"font", &"Label")
	var fs := _label_font_size()
	for label in _labels:
		draw_string(font, label.pos, label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs, label.color)
	if not _heat.is_empty():
		var order := _display_order()
		for i in mini(order.size(), input.strips.size()):
			var c: Color = _heat.get(order[i], Color(0, 0, 0, 0))
			if c.a > 0.0:
				var strip := input.strips[i]
				draw_rect(Rect2(strip.x + 1.0, 2.0, maxf(strip.y - strip.x - 2.0, 2.0), 7.0), Color(c, clampf(c.a * 2.2, 0.6, 1.0)))


func _label_font_size() -> int:
	return int(clampf(_card_size.x * 0.2, 12.0, 20.0))


## Global rectangles of the grouping view's labels (layout tests).
func label_rects() -> Array[Rect2]:
	var out: Array[Rect2] = []
	var font := get_theme_font(&"font", &"Label")
	var fs := _label_font_size()
	for label in _labels:
		var w := font.get_string_size(label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x
		var top: float = label.pos.y - font.get_ascent(fs)
		out.append(Rect2(global_position + Vector2(label.pos.x, top), Vector2(w, font.get_height(fs))))
	return out


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
	if _from_hint and not additive:
		# A tap on a hinted card takes it out of the hint; any other card starts afresh.
		var keep := _selected.has(id)
		_end_hint()
		if not keep:
			_selected.clear()
		toggle(id)
		return
	_end_hint()
	if additive:
		_selected[id] = true
		_refresh_selection()
	else:
		toggle(id)


func _on_double_tapped(index: int) -> void:
	var id := _id_at(index)
	if id >= 0 and not _selected.has(id):
		_selected[id] = true
		_refresh_selection()
	play_requested.emit()


func _on_long_pressed(index: int) -> void:
	var id := _id_at(index)
	var at := slot_of(id).get_center() if id >= 0 else size / 2.0
	grouping_requested.emit(at)


func _on_drag_changed(indices: PackedInt32Array, start_index: int) -> void:
	if _from_hint and not input.is_additive():
		_end_hint()
		_selected.clear()
	var start_id := _id_at(start_index)
	_drag_paint = input.is_additive() or not _selected.has(start_id)
	_drag_run.clear()
	for i in indices:
		_drag_run[_id_at(i)] = true
	_refresh_selection()


func _on_drag_finished(indices: PackedInt32Array, _start_index: int) -> void:
	for i in indices:
		var id := _id_at(i)
		if _drag_paint:
			_selected[id] = true
		else:
			_selected.erase(id)
	_drag_run.clear()
	_refresh_selection()


func _on_setting_changed(key: StringName, value: Variant) -> void:
	if key == &"drag_coverage":
		input.coverage = value
	elif key == &"card_size" or key == &"high_contrast_cards":
		_relayout(true)
