class_name HandFan
extends RefCounted
## Where the player's cards go: sorted by rank then suit (or in the grouping view's clusters),
## fanned with the CardStyle's overlap range and centred, each cluster's last card whole. Above
## 20 cards spacing and size shrink so 27 (28 after tribute) stay visible. The grouping view's
## captions are laid out and drawn here too. HandView owns one and moves the card views.

const GROUP_GAP := 0.28  # gap between clusters in the grouping view, in card widths
const GROUP_COLORS: Array[Color] = [Color(0.2, 0.75, 0.4), Color(0.95, 0.5, 0.1),
	Color(0.65, 0.35, 0.95), Color(0.1, 0.7, 0.85), Color(0.9, 0.3, 0.55)]

## id -> Rect2: each card's place (the hand's coordinates, unlifted).
var slots := {}
## The grouping view's captions: {text, pos, color}.
var labels: Array[Dictionary] = []
var card_size := Vector2.ZERO


## The card height a hand of `n` cards gets in `width` (rank view), from its wanted height: the
## same shrinking as lay_out. The table sizes the hand's box with it, so a full hand on a narrow
## screen leaves no empty band above the cards.
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


## The hand's clusters in display order: [{kind, ids, tag}].
static func clusters(ids: PackedInt32Array, level: int, manual: Dictionary, group_view: bool) -> Array[Dictionary]:
	if group_view:
		return HandGroups.groups(ids, level, manual)
	# Rank view: one cluster, manual groups kept together at the left.
	if manual.is_empty():
		return [{kind = &"all", ids = Cards.sorted(ids, level), tag = 0}]
	var out: Array[Dictionary] = []
	for g in HandGroups.groups(ids, level, manual):
		if g.kind == &"manual":
			out.append(g)
	var rest := PackedInt32Array()
	for id in Cards.sorted(ids, level):
		if not manual.has(id):
			rest.append(id)
	if not rest.is_empty():
		out.append({kind = &"all", ids = rest, tag = 0})
	return out


## Ids in the order they are shown left to right.
static func display_order(ids: PackedInt32Array, level: int, manual: Dictionary, group_view: bool) -> PackedInt32Array:
	var out := PackedInt32Array()
	for group in clusters(ids, level, manual, group_view):
		out.append_array(group.ids)
	return out


## Lays the clusters out in a hand of `size` with cards up to `card_height` tall that rise by
## `lift` when selected; fills slots, labels and card_size, and the input's strips (the visible
## part of each card) and band. Returns the ids in display order.
func lay_out(groups: Array[Dictionary], size: Vector2, card_height: float, lift: float, group_view: bool,
		input: HandInput) -> PackedInt32Array:
	var n := 0
	for g in groups:
		n += g.ids.size()
	var gaps := maxi(groups.size() - 1, 0)
	slots.clear()
	labels.clear()
	input.strips.clear()
	var margin := 12.0
	var avail := maxf(size.x - 2.0 * margin, 100.0)
	var st := CardStyle.current()
	var ch := minf(card_height, size.y - lift - 8.0)
	if n > 20:
		ch *= 1.0 - 0.15 * (minf(n, 28) - 20.0) / 8.0
	var cw := ch / CardView.ASPECT
	# Each cluster shows its last card whole, then a gap: width = (n - nk) steps + nk cards +
	# (nk - 1) gaps for nk clusters.
	var nk := maxi(groups.size(), 1)
	var units_min := (n - nk) * st.min_visible + nk + gaps * GROUP_GAP
	if cw * units_min > avail:
		cw = avail / units_min
		ch = cw * CardView.ASPECT
	var step := cw * st.max_visible
	if n > nk:
		step = clampf((avail - nk * cw - gaps * GROUP_GAP * cw) / (n - nk), cw * st.min_visible, cw * st.max_visible)
	card_size = Vector2(cw, ch)
	var total := (n - nk) * step + nk * cw + gaps * GROUP_GAP * cw
	var x := (size.x - total) / 2.0
	var base_y := size.y - ch - 6.0
	var order := PackedInt32Array()
	var xs: Array[float] = []
	for gi in groups.size():
		var g: Dictionary = groups[gi]
		if group_view or g.kind == &"manual":
			var key := "GROUP_" + String(g.kind).to_upper()
			labels.append({text = tr(key), pos = Vector2(x, base_y - lift - 4.0), color = _group_color(g)})
		var group_ids: PackedInt32Array = g.ids
		for k in group_ids.size():
			var id: int = group_ids[k]
			var t := ((x + cw / 2.0) - size.x / 2.0) / maxf(size.x / 2.0, 1.0)
			var y := base_y + ch * 0.05 * t * t
			slots[id] = Rect2(x, y, cw, ch)
			order.append(id)
			xs.append(x)
			var last_in_group := k == group_ids.size() - 1
			x += (cw * (1.0 + GROUP_GAP) if gi < groups.size() - 1 else cw) if last_in_group else step
	for i in order.size():
		var from := xs[i]
		var to := xs[i + 1] if i + 1 < order.size() else from + cw
		to = minf(to, from + cw)
		input.strips.append(Vector2(from, to))
	input.band = Vector2(base_y - lift - 4.0, size.y)
	return order


## Forgets the last layout (the hand was cleared).
func clear() -> void:
	slots.clear()
	labels.clear()


## The colour bar of a manual group (others: none).
static func manual_color(tag: int) -> Color:
	return GROUP_COLORS[tag % GROUP_COLORS.size()]


static func _group_color(g: Dictionary) -> Color:
	if g.kind == &"manual":
		return manual_color(int(g.tag))
	return Color(1, 1, 1, 0.85)


## Draws the captions on `canvas` (the hand) with the Label font.
func draw_labels(canvas: Control) -> void:
	var font := canvas.get_theme_font(&"font", &"Label")
	var fs := label_font_size()
	for label in labels:
		canvas.draw_string(font, label.pos, label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs, label.color)


## The captions' rectangles in global coordinates (layout tests).
func label_rects(canvas: Control) -> Array[Rect2]:
	var out: Array[Rect2] = []
	var font := canvas.get_theme_font(&"font", &"Label")
	var fs := label_font_size()
	for label in labels:
		var w := font.get_string_size(label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x
		var top: float = label.pos.y - font.get_ascent(fs)
		out.append(Rect2(canvas.global_position + Vector2(label.pos.x, top), Vector2(w, font.get_height(fs))))
	return out


func label_font_size() -> int:
	return int(clampf(card_size.x * 0.2, 12.0, 20.0))
