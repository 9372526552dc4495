extends RefCounted
## What the table's layout tests measure (test_table_layout.gd, test_table_places.gd,
## test_table_play_room.gd): the global rectangles of the named table elements, the overlaps
## that are not designed, and the places no play or word-art may cover.


static func shown(c: CanvasItem) -> bool:
	if not c.is_visible_in_tree():
		return false
	var n: Node = c
	while n is CanvasItem:
		if (n as CanvasItem).modulate.a <= 0.01:
			return false
		n = n.get_parent()
	return true


## The part of a one-line label its text covers.
static func ink(l: Label) -> Rect2:
	var r := l.get_global_rect()
	var font := l.get_theme_font(&"font")
	var fs := l.get_theme_font_size(&"font_size")
	var w := minf(font.get_string_size(l.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x, r.size.x)
	var h := minf(font.get_height(fs), r.size.y)
	var x := r.position.x
	if l.horizontal_alignment == HORIZONTAL_ALIGNMENT_CENTER:
		x += (r.size.x - w) / 2.0
	elif l.horizontal_alignment == HORIZONTAL_ALIGNMENT_RIGHT:
		x += r.size.x - w
	var y := r.position.y
	if l.vertical_alignment == VERTICAL_ALIGNMENT_CENTER:
		y += (r.size.y - h) / 2.0
	return Rect2(x, y, w, h)


static func union(rects: Array) -> Rect2:
	var out := Rect2()
	for r: Rect2 in rects:
		out = r if out.size == Vector2.ZERO else out.merge(r)
	return out


## name -> global rect of every named element on screen now.
static func elements(table: Table) -> Dictionary:
	var e := {}
	e["top bar"] = table.top_bar.get_global_rect()
	for seat in 4:
		var badge: SeatBadge = table.badges[seat]
		if shown(badge):
			e["seat %d badge" % seat] = badge.get_global_rect()
		var play: Rect2 = table.zone.group_rect(seat)
		if play.size != Vector2.ZERO:
			e["seat %d play" % seat] = play
	for pair in [["status", table.status], ["banner", table.banner], ["toast", table.toast_label]]:
		var l: Label = pair[1]
		if shown(l) and l.text != "":
			e[pair[0]] = ink(l)
	var readings: Array = []
	for b: Control in table.readings_box.get_children():
		if shown(b) and not b.is_queued_for_deletion():
			readings.append(b.get_global_rect())
	if not readings.is_empty():
		e["readings"] = union(readings)
	var buttons: Array = []
	for b: Control in table.action_bar.get_children():
		if shown(b):
			buttons.append(b.get_global_rect())
	if not buttons.is_empty():
		e["action buttons"] = union(buttons)
	if shown(table.clock):
		e["turn clock"] = table.clock.get_global_rect()
	var hand: HandView = table.hand
	var cards: Array = []
	for id in hand.cards():
		var v: CardView = table.layer.find_view(id)
		if v != null and v.visible:
			cards.append(Rect2(v.global_position, v.size * v.scale))
	cards.append_array(hand.label_rects())
	if not cards.is_empty():
		e["hand"] = union(cards)
	if shown(table.sidebar):
		e["sidebar"] = table.sidebar.get_global_rect()
	if shown(table.counter_view):
		e["card counter"] = table.counter_view.get_global_rect()
	if shown(table.tribute_panel):
		e["tribute lines"] = table.tribute_panel.get_global_rect()
	if table.modal.is_open():
		e["panel"] = table.modal.panel.get_global_rect()
	return e


## Overlaps that are part of the design: the modal panel sits over the dimmed table (not the
## end of a deal's buttons, which stand on the table where the action buttons do: they overlap nothing).
static func designed(table: Table, a: String, b: String) -> bool:
	return (a == "panel" or b == "panel") and not table.modal.on_table


## Every overlap that is not designed, everything outside the safe area (the frame), and a hand
## card left outside the hand after a resize, as messages starting with `where`.
static func problems(table: Table, where: String) -> PackedStringArray:
	var out := PackedStringArray()
	var e := elements(table)
	var safe: Rect2 = table.frame.get_global_rect().grow(1.0)
	var names := e.keys()
	for i in names.size():
		var a: String = names[i]
		var ra: Rect2 = e[a]
		if not safe.encloses(ra):
			out.append("%s: %s %s is outside the safe area %s" % [where, a, ra, safe])
		for j in range(i + 1, names.size()):
			var b: String = names[j]
			if designed(table, a, b):
				continue
			var rb: Rect2 = e[b]
			# A shared edge (or a pixel of rounding) is not an overlap.
			if ra.grow(-1.0).intersects(rb.grow(-1.0)):
				out.append("%s: %s %s overlaps %s %s" % [where, a, ra, b, rb])
	# Every card of the hand sits in the hand's own box after a resize (none left behind).
	var hand: HandView = table.hand
	var box := hand.get_global_rect().grow(2.0)
	for id in hand.cards():
		var v: CardView = table.layer.find_view(id)
		if v != null and not box.encloses(Rect2(v.global_position, v.size * v.scale)):
			out.append("%s: hand card %d at %s is outside the hand %s" % [where, id, v.global_position, box])
			break
	return out


## What no play and no word-art may cover: every seat's badge, its portrait and its cards-left
## chip, and the level plaque (name -> global rect).
static func places(table: Table) -> Dictionary:
	var g := {}
	for seat in 4:
		var badge: SeatBadge = table.badges[seat]
		if not shown(badge):
			continue
		g["seat %d badge" % seat] = badge.get_global_rect()
		g["seat %d portrait" % seat] = badge.avatar().get_global_rect()
		var chip := badge.find_child("Count", true, false) as Control
		if chip != null and shown(chip):
			g["seat %d chip" % seat] = chip.get_global_rect()
	g["level plaque"] = (table.plaque as Control).get_global_rect()
	return g


## Issue 54 (brief §5): every shown seat's name and level lie under its portrait — their ink below
## the portrait's foot, at least half of it (or half the portrait's width) in the portrait's
## column — and clear of every play and of the other seats, the plaque and the hand
## (messages starting with `where`).
static func name_problems(table: Table, where: String) -> PackedStringArray:
	var out := PackedStringArray()
	var others := {"level plaque": (table.plaque as Control).get_global_rect(), "hand": table.hand.get_global_rect()}
	for seat in 4:
		var r: Rect2 = table.zone.group_rect(seat)
		if r.size != Vector2.ZERO:
			others["seat %d play" % seat] = r
	for seat in 4:
		var badge: SeatBadge = table.badges[seat]
		if not shown(badge):
			continue
		var face := badge.avatar().get_global_rect()
		for line: Label in [badge.get_node(^"%SeatName") as Label, badge.get_node(^"%Sub") as Label]:
			if not shown(line) or line.text == "":
				continue
			var ink := ink(line)
			var what := "seat %d's %s '%s' %s" % [seat, line.name, line.text, ink]
			if ink.position.y < face.end.y - 1.0:
				out.append("%s: %s is not under its portrait %s" % [where, what, face])
			var shared := minf(ink.end.x, face.end.x) - maxf(ink.position.x, face.position.x)
			if shared < minf(ink.size.x, face.size.x) / 2.0:
				out.append("%s: %s does not stand under its portrait %s" % [where, what, face])
			for o: String in others:
				if ink.grow(-1.0).intersects((others[o] as Rect2).grow(-1.0)):
					out.append("%s: %s overlaps %s %s" % [where, what, o, others[o]])
			for s in 4:
				var b: SeatBadge = table.badges[s]
				if s != seat and shown(b) and ink.grow(-1.0).intersects(b.seat_rect().grow(-1.0)):
					out.append("%s: %s overlaps seat %d %s" % [where, what, s, b.seat_rect()])
	return out
