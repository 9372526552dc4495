class_name TableLayout
extends RefCounted
## Where everything on the table goes for a frame size. The frame is cut into bands that never
## share pixels, so nothing can overlap whatever the window's shape:
##
##   top bar                                                      |
##   north row:  [card counter] [north badge] [north play →]      |  sidebar: history,
##   side row:   [west badge] [west play →] [← east play] [east]   |  "why" panel,
##   prompt row: status line / banner / toast / readings (one at a time)  |  AI debug
##   south row:  [You badge]      [your play, centred]            |
##   action bar: [PASS HINT PLAY SORT]              [turn clock]
##   hand (with room for the grouping view's labels)
##
## Play slots are boxes (PlayZone.slot_rects): a long play tightens or shrinks to stay in its
## box. The tribute lines use the side row's centre, which is empty until the first play.
## Phones and tablets differ only in card sizes (UiLayout). Wide views (aspect ≥ WIDE_ASPECT) get
## larger plays, and the side plays start near the centre rather than at their badges.

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
## On wide views a side play's box reaches at most this many card widths out from the centre.
const WIDE_SIDE_CARDS := 7.0


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
	sidebar.position = Vector2(s.x - side_w, top)
	sidebar.size = Vector2(side_w, maxf(bar_y - top - 4.0, 60.0))
	t.training.fit_sidebar(side_w)
	var m := Rect2(0, top, s.x - side_w - (GAP if side_w > 0.0 else 0.0), bar_y - top - 4.0)
	t.middle = m

	var badges: Array[SeatBadge] = t.badges
	var badge_h := 0.0
	# Small text readable on the screen whatever the window's stretch (14 px at 1024×768).
	var least := UiLayout.readable_font_size(t)
	(t.counter_view as CardCounterView).set_text_floor(least)
	for badge in badges:
		badge.text_floor = least
		badge.reset_size()
		badge_h = maxf(badge_h, badge.size.y)
	# The three rows of plays share what the prompt row and the gaps leave.
	var free := m.size.y - PROMPT_H - 4.0 * GAP - NORTH_CLEAR
	var share := 0.68 if tablet else PLAY_SHARE_WIDE if wide else PLAY_SHARE
	var play_h := minf(clampf(card_h * share, 56.0, 150.0), free / 3.0)
	var row_h := maxf(play_h, badge_h)
	# Rows that cannot all fit at badge height squeeze their plays further.
	if 2.0 * row_h + maxf(play_h, badges[0].size.y) > free:
		play_h = maxf(free - 2.0 * badge_h, 40.0)
		row_h = maxf(play_h, badge_h)
	var used := 2.0 * row_h + maxf(play_h, badges[0].size.y) + PROMPT_H + NORTH_CLEAR
	var gap := clampf((m.size.y - used) / 4.0, GAP * 0.5, 40.0)
	var zone: PlayZone = t.zone
	zone.card_height = play_h
	zone.position = Vector2.ZERO
	zone.size = s

	# North row.
	var y := m.position.y + NORTH_CLEAR
	var counter: CardCounterView = t.counter_view
	var north_x := m.get_center().x - badges[2].size.x - GAP
	if counter.visible:
		counter.reset_size()
		counter.position = Vector2(m.position.x + 6.0, y)
		north_x = maxf(north_x, counter.position.x + counter.size.x + GAP)
	var north := badges[2]
	north.position = Vector2(north_x, y + (row_h - north.size.y) / 2.0)
	var nx := north.position.x + north.size.x + GAP
	zone.set_slot(2, Rect2(nx, y + (row_h - play_h) / 2.0, maxf(m.end.x - 6.0 - nx, 1.0), play_h), 1)

	# Side row.
	y += row_h + gap
	var margin := TableStyle.current().seat_margin
	var west := badges[3]
	west.position = Vector2(m.position.x + margin, y + (row_h - west.size.y) / 2.0)
	var east := badges[1]
	east.position = Vector2(m.end.x - east.size.x - margin, y + (row_h - east.size.y) / 2.0)
	var wx := west.position.x + west.size.x + GAP
	var ex := east.position.x - GAP
	var mid_x := (wx + ex) / 2.0
	var py := y + (row_h - play_h) / 2.0
	# Wide: the side plays start near the centre, not at their badges across an empty middle.
	var reach := play_h / CardView.ASPECT * WIDE_SIDE_CARDS if wide else INF
	var w0 := maxf(wx, mid_x - GAP / 2.0 - reach)
	var e1 := minf(ex, mid_x + GAP / 2.0 + reach)
	zone.set_slot(3, Rect2(w0, py, maxf(mid_x - GAP / 2.0 - w0, 1.0), play_h), 1)
	zone.set_slot(1, Rect2(mid_x + GAP / 2.0, py, maxf(e1 - mid_x - GAP / 2.0, 1.0), play_h), -1)
	var tribute: TributePanel = t.tribute_panel
	tribute.fit(Rect2(wx, y, maxf(ex - wx, 1.0), row_h))

	# Prompt row: the status line, banners, toasts and the readings share it, one at a time.
	y += row_h + gap
	var prompt := Rect2(m.position.x, y, m.size.x, PROMPT_H)
	t.status.position = prompt.position
	t.status.size = prompt.size
	var banner: Banner = t.banner
	banner.position = prompt.position
	banner.size = prompt.size
	banner.refit()
	t.prompt_rect = prompt
	t.place_toast()
	t.readings_box.position = prompt.position
	t.readings_box.size = prompt.size

	# South row.
	y += PROMPT_H + gap
	var me := badges[0]
	var south_h := maxf(play_h, me.size.y)
	# At the row's foot: clear of a banner's large letters in the prompt row above.
	me.position = Vector2(m.position.x + 6.0, y + south_h - me.size.y)
	var side := me.size.x + 6.0 + GAP
	zone.set_slot(0, Rect2(m.position.x + side, y + (south_h - play_h) / 2.0, maxf(m.size.x - 2.0 * side, 1.0), play_h), 0)
	zone.relayout(t.level)

	# The felt's oval around the play (TableStyle "Table"): the seats sit on its rim, the hand over
	# its near edge.
	var st := TableStyle.current()
	var oval := Rect2(m.position.x + st.oval_inset.x, top_h + st.oval_inset.y, m.size.x - 2.0 * st.oval_inset.x,
		bar_y + st.oval_bottom - top_h - st.oval_inset.y)
	var to_global := frame.get_global_transform()
	t.show_oval(Rect2(to_global * oval.position, oval.size * to_global.get_scale()))
