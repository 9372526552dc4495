class_name TableLayout
extends RefCounted
## Where everything on the table goes for a frame size. The frame is cut into bands that never
## share pixels, so nothing can overlap whatever the window's shape:
##
##   top bar (the level plaque at its centre)                          |
##   north row:   [card counter]      [North's seat]                   |  sidebar: history,
##   north band:  [West's   [           North's play          ]  East's |  AI debug, heat
##   side band:    seat]    [West's play →] [← East's play]      seat]  |  legend (or the
##   prompt row:  status line / banner / toast / readings (one at a time)  |  "why" alone,
##   south row:   [You badge]      [your play, centred]                 |  right of North)
##   action bar:  [PASS HINT PLAY SORT]              [turn clock]
##   hand (with room for the grouping view's labels)
##
## Each seat's play lands in front of it: under North, right of West, left of East, above the
## hand. West and East stand at the edges across the north and side bands (portrait, fan of backs,
## then their lines), so North's play and theirs share no pixels with any seat.
## Play slots are boxes (PlayZone.slot_rects): a long play tightens or shrinks to stay in its
## box. The tribute lines use the side band's centre, which is empty until the first play.
## Phones and tablets differ only in card sizes (UiLayout). Wide views (aspect ≥ WIDE_ASPECT) get
## larger plays, and the side plays start near the centre rather than at their badges; their
## prompt row moves into the action bar, left of the buttons, and its band goes to the plays;
## North stands beside its play (North's row goes too) and the player's seat left of the prompt.
## The felt's oval is centred in the table's space (the whole width with the sidebar closed), its
## rim inside the frame.

const TOP_H := 50.0
const BAR_H := 58.0
const PROMPT_H := 46.0
const GAP := 8.0
## Room between the top bar and North's play (a five-card play nearly touched the bar).
const NORTH_CLEAR := 10.0
## Room above the hand's cards for the grouping view's labels.
const LABEL_ROOM := 22.0
## From this aspect ratio on (a phone held sideways, an ultrawide monitor) the plays grow and the
## side plays move in toward the centre instead of hugging their badges across an empty middle.
const WIDE_ASPECT := 1.9
## Play height as a share of the hand's card height: usually, and on wide views.
const PLAY_SHARE := 0.6
const PLAY_SHARE_WIDE := 0.75
## On wide views the prompt row's lines stand left of the buttons, at least this share of the width.
const PROMPT_SHARE_WIDE := 0.34
## On wide views a side play's box reaches at most this many card widths out from the centre.
const WIDE_SIDE_CARDS := 7.0
## North's play box is at least this many card widths wide (moved aside under North if need be).
const NORTH_PLAY_CARDS := 6.0
## The side seats stand with their lines under the portrait when the plays keep at least this height.
const STACKED_PLAY_H := 56.0


static func apply(t: Control) -> void:
	var frame: Control = t.frame
	var s := frame.size
	if s.x < 10.0:
		return
	var view := t.get_viewport_rect().size
	var tablet := UiLayout.is_tablet(view)
	var wide := view.x / maxf(view.y, 1.0) >= WIDE_ASPECT
	# On a phone the bars grow to the tap floor (PhoneProfile) the buttons are raised to.
	var tap := UiLayout.tap_floor(view)
	var top_h := maxf(TOP_H, tap)
	var bar_h := maxf(BAR_H, tap + 6.0)
	t.top_bar.position = Vector2.ZERO
	t.top_bar.size = Vector2(s.x, top_h)

	# Bottom: the hand, then the action bar with the turn clock at its right.
	var card_h := UiLayout.hand_card_height(view)
	# Sized for a full hand (27 cards): fewer cards may grow back up to the box, never past it.
	var hand_h := HandView.fitted_card_height(card_h, s.x, 27) + HandView.lift() + 4.0 + LABEL_ROOM
	var hand: HandView = t.hand
	hand.card_height = card_h
	hand.position = Vector2(0, s.y - hand_h)
	hand.size = Vector2(s.x, hand_h)
	var bar_y := s.y - hand_h - bar_h
	t.action_bar.position = Vector2(0, bar_y)
	t.action_bar.size = Vector2(s.x, bar_h - 6.0)
	var clock: Control = t.clock
	# A fixed size: the clock is hidden most of the time, and a hidden container's size is stale.
	clock.size = t.clock_size()
	clock.position = Vector2(s.x - clock.size.x - 6.0, bar_y + (bar_h - 6.0 - clock.size.y) / 2.0)

	# Right: the sidebar (history, why panel, AI debug) when any of them is wanted.
	var sidebar: Control = t.sidebar
	var side_w := minf(320.0, s.x * 0.24) if t.sidebar_wanted() else 0.0
	sidebar.visible = side_w > 0.0
	var top := top_h + 4.0
	# The why text's least width first: the sidebar cannot be sized below its children's.
	t.training.fit_sidebar(side_w)
	sidebar.position = Vector2(s.x - side_w, top)
	sidebar.size = Vector2(side_w, maxf(bar_y - top - 4.0, 60.0))
	var m := Rect2(0, top, s.x - side_w - (GAP if side_w > 0.0 else 0.0), bar_y - top - 4.0)
	t.middle = m

	var badges: Array[SeatBadge] = t.badges
	# Small text readable on the screen whatever the window's stretch (14 px at 1024×768).
	var least := UiLayout.readable_font_size(t)
	var counter: CardCounterView = t.counter_view
	counter.set_text_floor(least)
	for badge in badges:
		badge.text_floor = least
		badge.reset_size()
	var me := badges[0]
	var east := badges[1]
	var north := badges[2]
	var west := badges[3]
	if counter.visible:
		counter.reset_size()
	# Bands under the top bar: North's seat, North's play, the side plays (West and East sit at the
	# edges across these two bands), the prompt row, the player's row. Each seat's play lands in
	# front of it: under North, right of West, left of East, above the hand.
	# Wide views (a phone held sideways) say the prompt row's lines left of the buttons, in the
	# action bar's empty half: its band goes to the plays (issue 54: they were 0.42 of the hand).
	var prompt_h := 0.0 if wide else PROMPT_H
	var counter_h := counter.size.y if counter.visible else 0.0
	var rest := m.size.y - NORTH_CLEAR - prompt_h - (3.0 if wide else 4.0) * GAP
	# Every seat stands with its name and level under its portrait (the genre's seat, brief §5)
	# where the bands leave plays of STACKED_PLAY_H that way (a wide view: of PLAY_SHARE of the
	# hand's cards); else the lines stand beside it (a short view, a phone's larger text). The side
	# seats span two bands and stack first; the player's stacked seat reaches down beside the action
	# bar's buttons (me_drop; on a wide view its prompt moves right of it), so its row needs only
	# the part above the bar; last North, whose lines push every band down — on a wide view North
	# stands beside its play instead, in the play's band (north_aside: the width is there, the
	# height is not; at 2340×1080 North's lines under it took the plays below 0.6 of the hand).
	var least_play := STACKED_PLAY_H
	if wide:
		least_play = maxf(least_play, PLAY_SHARE * HandView.fitted_card_height(card_h, s.x, 27))
	var me_drop := bar_h - 6.0 - GAP * 0.5
	for b: SeatBadge in badges:
		b.place_line = true
	me.auto_line = true
	var st := _stacking(badges, least_play, counter_h, rest, wide, me_drop)
	# The player on Auto-play: its third line kept North's and the player's lines from standing
	# under their portraits at 1280×720 (seen in a window); there the lit Auto-play switch and the
	# seat's blinking frame say it alone.
	if not (st[1] and st[2] and st[3]) and me.auto_play:
		me.auto_line = false
		var bare := _stacking(badges, least_play, counter_h, rest, wide, me_drop)
		if bare[1] and bare[2] and bare[3]:
			st = bare
		else:
			me.auto_line = true
	# At a deal's end the finishing place is every seat's third line; where it keeps a seat's lines
	# from standing under its portrait (North's and the player's at 1280×720) and the seats stand
	# so without it, the portrait's medal says the place alone.
	if not (st[1] and st[2] and st[3]) and badges.any(func(b: SeatBadge) -> bool: return b.place > 0):
		for b: SeatBadge in badges:
			b.place_line = false
		var without := _stacking(badges, least_play, counter_h, rest, wide, me_drop)
		if without[1] and without[2] and without[3]:
			st = without
		else:
			for b: SeatBadge in badges:
				b.place_line = true
	var north_aside: bool = st[0]
	var stack: bool = st[1]
	var stack_me: bool = st[2]
	var stack_north: bool = st[3]
	for b: SeatBadge in badges:
		var want := stack_north if b == north else stack_me if b == me else stack
		if b.stacked != want:
			b.stacked = want
			b.reset_size()
	# North's row holds North's seat (and the card counter at its left); beside its play, none.
	var north_row := 0.0 if north_aside else maxf(north.size.y, counter_h)
	var side_h := maxf(west.shape_height(stack), east.shape_height(stack))
	var share := 0.68 if tablet else PLAY_SHARE_WIDE if wide else PLAY_SHARE
	var play_h := clampf(card_h * share, 56.0, 150.0)
	# Squeezed until the bands fit (never under 40 px).
	var me_row := me.size.y - (me_drop if stack_me else 0.0)
	while play_h > 40.0 and _need(play_h, north.size.y, counter_h, side_h, me_row, north_aside) > rest:
		play_h -= 2.0
	play_h = maxf(play_h, 40.0)
	# North's play band (with North and the card counter in it when North stands aside).
	var north_band := maxf(play_h, maxf(north.size.y, counter_h)) if north_aside else play_h
	var side_row := maxf(play_h, side_h - north_band - GAP * 0.5)
	var south_h := maxf(play_h, me_row)
	var used := NORTH_CLEAR + north_row + north_band + side_row + prompt_h + south_h
	var gap := clampf((m.size.y - used) / (3.0 if wide else 4.0), GAP * 0.5, 40.0)
	var zone: PlayZone = t.zone
	zone.card_height = play_h
	zone.position = Vector2.ZERO
	zone.size = s

	# North's row: the seat centred over the table (right of the card counter).
	var y := m.position.y + NORTH_CLEAR
	var north_left := m.position.x
	if counter.visible:
		counter.position = Vector2(m.position.x + 6.0, y)
		north_left = counter.position.x + counter.size.x + GAP
	# Aside: North left of its play, the play's box (NORTH_PLAY_CARDS wide) centred on the table.
	var north_w := play_h / CardView.ASPECT * NORTH_PLAY_CARDS
	if north_aside:
		north.position = Vector2(maxf(m.get_center().x - north_w / 2.0 - GAP - north.size.x, north_left), y)
	else:
		north.position = Vector2(maxf(m.get_center().x - north.size.x / 2.0, north_left), y + (north_row - north.size.y) / 2.0)
		y += north_row + gap
	var north_play_y := y
	y += north_band + gap
	var side_y := y

	# West and East at the edges, their portraits as level with their plays as the bands allow.
	var margin := TableStyle.current().seat_margin
	var span_end := side_y + side_row
	# Below the card counter when it shares North's play band.
	var side_least := north_play_y + (counter_h + GAP if north_aside and counter_h > 0.0 else 0.0)
	west.position = Vector2(m.position.x + margin, _side_top(west, side_least, side_y, side_row, span_end))
	east.position = Vector2(m.end.x - east.size.x - margin, _side_top(east, side_least, side_y, side_row, span_end))
	var wx := west.position.x + west.size.x + GAP
	var ex := east.position.x - GAP

	# North's play under North, between the side seats where they reach into its band: centred
	# under North, moved aside (still under North) when North stands near a side seat.
	var nc := north.position.x + north.size.x / 2.0
	var band_end := north_play_y + north_band
	var nl := wx if west.position.y < band_end else m.position.x + 6.0
	var nr := ex if east.position.y < band_end else m.end.x - 6.0
	var want_w: float
	var nx: float
	if north_aside:
		# From North's side toward the centre and on, as West's play starts at West.
		nx = north.position.x + north.size.x + GAP
		want_w = maxf(minf(north_w, nr - nx), 1.0)
		nc = nx + want_w / 2.0
		zone.set_slot(2, Rect2(nx, north_play_y + (north_band - play_h) / 2.0, want_w, play_h), 1)
	else:
		var half := maxf(minf(nc - nl, nr - nc), 0.0)
		want_w = minf(maxf(nr - nl, 1.0), maxf(2.0 * half, north_w))
		nx = clampf(nc - want_w / 2.0, nl, maxf(nr - want_w, nl))
		zone.set_slot(2, Rect2(nx, north_play_y, want_w, play_h), 0)

	# The side plays, each from its seat toward the centre.
	var mid_x := (wx + ex) / 2.0
	var py := side_y + (side_row - play_h) / 2.0
	# Wide: the side plays start near the centre, not at their badges across an empty middle.
	var reach := play_h / CardView.ASPECT * WIDE_SIDE_CARDS if wide else INF
	var w0 := maxf(wx, mid_x - GAP / 2.0 - reach)
	var e1 := minf(ex, mid_x + GAP / 2.0 + reach)
	zone.set_slot(3, Rect2(w0, py, maxf(mid_x - GAP / 2.0 - w0, 1.0), play_h), 1)
	zone.set_slot(1, Rect2(mid_x + GAP / 2.0, py, maxf(e1 - mid_x - GAP / 2.0, 1.0), play_h), -1)
	var tribute: TributePanel = t.tribute_panel
	tribute.fit(Rect2(wx, side_y, maxf(ex - wx, 1.0), side_row))

	# The player's seat on the felt's edge (bottom left, as the genre seats the player), not in the
	# corner outside the oval; stacked, its foot at the action bar's, left of the buttons: they move
	# right where the seat would reach them.
	var oval := _oval(m, top_h, bar_y, s)
	if stack_me:
		_place_me(me, oval, bar_y + bar_h - 6.0 - me.size.y, m)
		var clear := me.position.x + me.size.x + GAP
		if not wide and clear > (s.x - _buttons_width(t.action_bar)) / 2.0:
			t.action_bar.position.x = clear
			t.action_bar.size.x = maxf(s.x - 2.0 * clear, 1.0)

	# Prompt row: the status line, banners, toasts and the readings share it, one at a time.
	y = side_y + side_row + gap
	var prompt := Rect2(m.position.x, y, m.size.x, PROMPT_H)
	if wide:
		# The buttons centred between the prompt and the clock: the prompt's lines get what is left.
		# (a banner needs about a third of the width: the buttons move right of centre for it).
		# The player's stacked seat stands at the bar's left: the prompt starts right of it.
		var left := me.position.x + me.size.x + GAP if stack_me else 6.0
		var buttons_w := _buttons_width(t.action_bar)
		var centred := (s.x - buttons_w) / 2.0 - GAP - left
		var most := clock.position.x - GAP - buttons_w - GAP - left
		prompt = Rect2(left, bar_y, maxf(maxf(centred, minf(s.x * PROMPT_SHARE_WIDE, most)), 1.0), bar_h - 6.0)
		t.action_bar.position.x = prompt.end.x + GAP
		t.action_bar.size.x = maxf(clock.position.x - GAP - t.action_bar.position.x, 1.0)
		y -= PROMPT_H + gap
	t.status.position = prompt.position
	t.status.size = prompt.size
	var banner: Banner = t.banner
	banner.room = prompt.size.x
	banner.position = prompt.position
	banner.size = prompt.size
	banner.refit()
	t.prompt_rect = prompt
	t.place_toast()
	t.readings_box.position = prompt.position
	t.readings_box.size = prompt.size

	# South row.
	y += PROMPT_H + gap
	# Beside the lines: at the row's foot, clear of a banner's large letters in the prompt row above.
	if not stack_me:
		_place_me(me, oval, y + south_h - me.size.y, m)
	var side := me.position.x + me.size.x + GAP - m.position.x
	zone.set_slot(0, Rect2(m.position.x + side, y + (south_h - play_h) / 2.0, maxf(m.size.x - 2.0 * side, 1.0), play_h), 0)
	zone.relayout(t.level)

	# A deal's ceremony card grows up from the action bar over the felt's centre: a side seat that
	# reaches down to it steps up clear of it, not above the table's space (West: nor over the card
	# counter; neither over North). (At 1280×720 with the history open, East's seat, its lines
	# under its portrait at a deal's end, met the card's corner.)
	var modal: Modal = t.modal
	if modal.on_table and modal.is_open():
		var card_top := DealCeremony.card_rect(t as Table).position.y
		var k := maxf(frame.get_global_transform().get_scale().y, 0.01)
		for b: SeatBadge in [west, east]:
			var over := (b.get_global_rect().end.y + GAP - card_top) / k
			var highest := m.position.y + NORTH_CLEAR + (counter_h + GAP if b == west and counter_h > 0.0 else 0.0)
			if b.position.x < north.position.x + north.size.x and north.position.x < b.position.x + b.size.x:
				highest = maxf(highest, north.position.y + north.size.y + GAP)
			if over > 0.0:
				b.position.y = maxf(b.position.y - over, highest)

	# Without a column of its own (the history closed) the hint's "why" stands right of North.
	if side_w <= 0.0:
		# Right of North's play as it is drawn (centred, NORTH_PLAY_CARDS wide), not of its slot,
		# which spans the whole width of a wide view (issue 53: at 2340×1080 no room was left).
		var north_cards_end := nc + play_h / CardView.ASPECT * NORTH_PLAY_CARDS / 2.0
		var why_x := maxf(north.position.x + north.size.x, minf(nx + want_w, north_cards_end)) + GAP
		t.training.float_why(Rect2(why_x, m.position.y + NORTH_CLEAR, maxf(m.end.x - 6.0 - why_x, 0.0),
			maxf(east.position.y - GAP - m.position.y - NORTH_CLEAR, 0.0)))

	# The felt's oval around the play (TableStyle "Table"), centred in the table's space: the seats
	# sit on its rim, the hand over its near edge. The rim lies outside the oval; it and the style's
	# inset stay inside the frame.
	var to_global := frame.get_global_transform()
	t.show_oval(Rect2(to_global * oval.position, oval.size * to_global.get_scale()))


## The player's seat `me` at `y`, its portrait on the oval's left edge (not left of the table's space `m`).
## Which seats stand with their lines under the portrait: [north_aside, the side seats (stack),
## the player, North], from the seats' shapes as they are now.
static func _stacking(badges: Array[SeatBadge], least_play: float, counter_h: float, rest: float, wide: bool,
		me_drop: float) -> Array[bool]:
	var me := badges[0]
	var north := badges[2]
	var sides_h := maxf(badges[3].shape_height(true), badges[1].shape_height(true))
	var north_flat := north.shape_height(false)
	var north_t := north.shape_height(true)
	var me_flat := me.shape_height(false)
	var north_aside := wide and _need(STACKED_PLAY_H, north_t, counter_h, sides_h, me_flat, true) <= rest
	var stack := north_aside or _need(STACKED_PLAY_H, north_flat, counter_h, sides_h, me_flat, false) <= rest
	# Beside North on a wide view the player stacks down to STACKED_PLAY_H plays (a deal's end, when
	# a finishing place adds a line to every seat; during play the plays keep PLAY_SHARE).
	var north_h := north_t if north_aside else north_flat
	var me_stacked := me.shape_height(true) - me_drop
	var stack_me := stack and (_need(least_play, north_h, counter_h, sides_h, me_stacked, north_aside) <= rest
		or north_aside and _need(STACKED_PLAY_H, north_h, counter_h, sides_h, me_stacked, true) <= rest)
	var me_h := me.shape_height(true) - me_drop if stack_me else me_flat
	var stack_north := north_aside or stack and _need(least_play, north_t, counter_h, sides_h, me_h, false) <= rest
	return [north_aside, stack, stack_me, stack_north]


static func _place_me(me: SeatBadge, oval: Rect2, y: float, m: Rect2) -> void:
	var x := _edge_x(oval, y + me.portrait_middle()) - me.portrait_left() - me.portrait_size() / 2.0
	me.position = Vector2(maxf(x, m.position.x + 6.0), y)


## The felt's oval (the frame's coordinates) for the table's space `m`: the rim lies outside it;
## it and the style's inset stay inside the frame `s`.
static func _oval(m: Rect2, top_h: float, bar_y: float, s: Vector2) -> Rect2:
	var st := TableStyle.current()
	var rim := st.rim_width
	var left := m.position.x + st.oval_inset.x + rim
	var oval_top := maxf(top_h + st.oval_inset.y, rim + st.oval_inset.x)
	var oval_bottom := minf(bar_y + st.oval_bottom, s.y - rim - st.oval_inset.x)
	return Rect2(left, oval_top, maxf(m.end.x - st.oval_inset.x - rim - left, 1.0), maxf(oval_bottom - oval_top, 1.0))


## The x of the oval's left edge at height `y` (its leftmost point above or below it).
static func _edge_x(oval: Rect2, y: float) -> float:
	var c := oval.get_center()
	var k := clampf((y - c.y) / maxf(oval.size.y / 2.0, 1.0), -1.0, 1.0)
	return c.x - oval.size.x / 2.0 * sqrt(1.0 - k * k)


## Height North's row and the three play bands need for plays `play_h` high: North's row (its seat
## `north_h` and the card counter `counter_h`; with `aside`, both stand in North's play band
## instead), North's play, the side band (West and East's seats, `side_h` high, span it and North's
## band) and the player's row (its seat `me_h`).
static func _need(play_h: float, north_h: float, counter_h: float, side_h: float, me_h: float, aside: bool) -> float:
	var north_row := maxf(north_h, counter_h)
	var north_band := maxf(play_h, north_row) if aside else play_h
	var bands := north_band + maxf(play_h, side_h - north_band - GAP * 0.5) + maxf(play_h, me_h)
	return bands if aside else north_row + bands


## The top of a side seat `b`: its portrait level with the side band's middle, kept between the top
## of North's play band and the foot of the side band.
static func _side_top(b: Control, north_play_y: float, side_y: float, side_row: float, span_end: float) -> float:
	var want := side_y + side_row / 2.0 - (b as SeatBadge).portrait_middle()
	return clampf(want, north_play_y, maxf(span_end - b.size.y, north_play_y))


## The action bar's buttons' width with every one shown (they come and go with the turn; the
## prompt beside them must not be laid out again each time).
static func _buttons_width(bar: HBoxContainer) -> float:
	var w := 0.0
	for b: Control in bar.get_children():
		w += b.get_combined_minimum_size().x + float(bar.get_theme_constant(&"separation"))
	return w
