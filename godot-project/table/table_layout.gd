class_name TableLayout
extends RefCounted
## Where everything on the table goes for a frame size: the top bar, the hand and the action bar
## at the bottom, the seat badges around the middle, the four play slots, banner, status line,
## toast, tribute panel and the training overlays. Phones and tablets differ only in card sizes
## (UiLayout).


static func apply(t: Control) -> void:
	var frame: Control = t.frame
	var s := frame.size
	if s.x < 10.0:
		return
	var view := t.get_viewport_rect().size
	var tablet := UiLayout.is_tablet(view)
	var top_h := 50.0
	t.top_bar.position = Vector2.ZERO
	t.top_bar.size = Vector2(s.x, top_h)
	var card_h := UiLayout.hand_card_height(view)
	var hand_h := card_h + HandView.lift() + 18.0
	var hand: HandView = t.hand
	hand.card_height = card_h
	hand.position = Vector2(0, s.y - hand_h)
	hand.size = Vector2(s.x, hand_h)
	var bar_h := 58.0
	t.action_bar.position = Vector2(0, s.y - hand_h - bar_h)
	t.action_bar.size = Vector2(s.x, bar_h - 6.0)
	t.my_countdown.position = Vector2(s.x * 0.3, s.y - hand_h - 8.0)
	t.my_countdown.size = Vector2(s.x * 0.4, 6.0)
	t.readings_box.position = Vector2(8, s.y - hand_h - bar_h - 52.0)
	t.readings_box.size = Vector2(s.x * 0.45, 46)
	var history: HistoryPanel = t.history
	var side_w := minf(320.0, s.x * 0.24) if history.visible else 0.0
	history.position = Vector2(s.x - side_w, top_h + 4.0)
	history.size = Vector2(side_w, maxf(s.y - hand_h - bar_h - top_h - 12.0, 120.0))
	t.middle = Rect2(0, top_h, s.x - side_w, s.y - hand_h - bar_h - top_h)
	var m: Rect2 = t.middle
	var play_h := clampf(card_h * (0.68 if tablet else 0.6), 64.0, 150.0)
	var zone: PlayZone = t.zone
	zone.card_height = play_h
	zone.position = Vector2.ZERO
	zone.size = s

	var style := TableStyle.current()
	var badges: Array[SeatBadge] = t.badges
	for badge in badges:
		badge.reset_size()
	var north := badges[2]
	north.position = Vector2(m.get_center().x - north.size.x / 2.0, m.position.y + 2.0)
	var west := badges[3]
	west.position = Vector2(m.position.x + style.seat_margin, m.get_center().y - west.size.y / 2.0 - 10.0)
	var east := badges[1]
	east.position = Vector2(m.end.x - east.size.x - style.seat_margin, m.get_center().y - east.size.y / 2.0 - 10.0)
	var me := badges[0]
	me.position = Vector2(8.0, s.y - hand_h - bar_h + 2.0)

	var gap := 18.0
	zone.slot_centers[2] = Vector2(m.get_center().x, north.position.y + north.size.y + gap + play_h / 2.0)
	zone.slot_centers[0] = Vector2(m.get_center().x, m.end.y - play_h / 2.0 - 8.0)
	zone.slot_centers[3] = Vector2(west.position.x + west.size.x + gap, m.get_center().y)
	zone.slot_centers[1] = Vector2(east.position.x - gap, m.get_center().y)
	zone.slot_align = [0, -1, 0, 1]

	# Between the west and east badges, so a long announcement wraps instead of covering them.
	var banner: Banner = t.banner
	var banner_x := west.position.x + west.size.x + 8.0
	banner.position = Vector2(banner_x, m.get_center().y - 60.0)
	banner.size = Vector2(maxf(east.position.x - 8.0 - banner_x, 200.0), 120.0)
	banner.refit()
	t.status.position = Vector2(m.position.x, zone.slot_centers[0].y - play_h / 2.0 - 36.0)
	t.status.size = Vector2(m.size.x, 30.0)
	t.toast_label.position = Vector2(0, s.y - hand_h - bar_h - 40.0)
	t.toast_label.size = Vector2(s.x, 34.0)
	# The tribute lines sit between the north play and the south play, clear of both.
	var tribute: TributePanel = t.tribute_panel
	tribute.center = Vector2(m.get_center().x, (zone.slot_centers[2].y + zone.slot_centers[0].y) / 2.0)
	tribute.place()
	var counter: CardCounterView = t.counter_view
	counter.reset_size()
	counter.position = Vector2(m.position.x + 6.0, m.position.y + 4.0)
	t.training.layout(m, s, counter.size.y + 6.0 if counter.visible else 0.0)
	zone.relayout(t.level)
