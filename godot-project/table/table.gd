extends Control
## The table, shared by training and full matches (and by replays for the drawing): the player's
## hand at the bottom, partner opposite, opponents left and right (a card back and a count each),
## each seat's latest play in the centre, levels and wild at the top, whose turn with a countdown,
## PASS / HINT / PLAY / SORT, finishing places, banners for "table cleared" and "partner takes the
## lead", tribute and return steps, and end-of-deal / end-of-match panels.
##
## Engine events arrive from the MatchController as dictionaries and are handled strictly one
## after another (an event queue): each handler may animate, and while the queue is not empty
## the engine is paused and the hand's input is locked. So fast AI turns never overlap on screen
## and the turn clock only runs when the table is idle.
##
## Seats: 0 = the player (south), 1 = east (next to play), 2 = north (partner), 3 = west.

## One engine event has been shown (tests wait on it).
signal event_handled(event: Dictionary)
## The event queue ran empty; the table waits for the player or the AI.
signal became_idle
## The end-of-deal panel is up (args: the deal_ended event).
signal deal_panel_shown(event: Dictionary)
## The end-of-match panel is up.
signal match_panel_shown(event: Dictionary)

const TrainingTools := preload("res://table/training_tools.gd")
## Heat map colours (training): red bomb material, blue straight material, yellow wilds, grey
## "danger" (a lone low card that will be hard to get rid of). Alpha scales with the weight.
const HEAT_COLORS := {
	"bomb": Color(0.95, 0.15, 0.15, 0.4),
	"straight": Color(0.15, 0.4, 1.0, 0.38),
	"wild": Color(1.0, 0.82, 0.05, 0.45),
	"danger": Color(0.25, 0.22, 0.3, 0.4),
}

var config := {}
var mode: StringName = &"training"
var controller: MatchController

var layer: CardLayer
var hand: HandView
var zone: PlayZone
var history: HistoryPanel
var banner: Banner
var modal: Modal
var training: Node  # TrainingTools
var badges: Array[SeatBadge] = []
var pass_button: Button
var hint_button: Button
var play_button: Button
var sort_button: Button
var readings_box: HBoxContainer
var history_button: Button
var heat_button: Button  # training only

var local_seat := 0
var spectator := false
var level := 2
var team_levels := PackedInt32Array([2, 2])
var declarer := -1
var deal_no := 0
var counts := PackedInt32Array([27, 27, 27, 27])
var places := PackedInt32Array([0, 0, 0, 0])
var turn_seat := -1
var can_pass := false
## What the player must do now: &"" (nothing), &"play", &"tribute", &"return".
var duty: StringName = &""
var match_over := false
var last_record := ""

var _frame: Control
var _top_bar: HBoxContainer
var _level_label: Label
var _deal_label: Label
var _mode_label: Label
var _action_bar: HBoxContainer
var _my_countdown: ProgressBar
var _status: Label
var _tribute_info: PanelContainer
var _tribute_lines: VBoxContainer
var _toast: Label
var _flying_back: CardView
var _queue: Array[Dictionary] = []
var _draining := false
var _fresh_deal := false
var _turn_deadline_ms := 0
var _turn_limit_ms := 0
var _middle := Rect2()
var _wait_tween: Tween
## Set when the table leaves the tree: coroutines waiting on a tween or a panel are released
## and stop at their next check, so none outlives the table.
var _closing := false
var _toast_tween: Tween
var _shake_tween: Tween
var _tribute_hide_tween: Tween


## Called by the app before the table enters the tree (see ui/app.gd).
func open(params: Dictionary) -> void:
	config = params.duplicate(true)
	mode = config.get("mode", &"training")


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	_build()
	resized.connect(_layout)
	Settings.changed.connect(_on_setting_changed)
	_layout()
	controller = MatchController.new()
	controller.name = "MatchController"
	add_child(controller)
	controller.event_received.connect(_enqueue)
	if not MatchController.available():
		_status.text = tr("MAIN_ENGINE_MISSING")
		return
	if config.is_empty():
		config = {mode = mode, rules = Settings.get_value(&"rules_preset"), ai_levels = Settings.get_value(&"ai_levels")}
	var code := controller.start(config)
	if code != 0:
		_show_error(code)


signal _waited


func _exit_tree() -> void:
	_closing = true
	for t in [_wait_tween, _toast_tween, _shake_tween]:
		if t != null:
			t.kill()
	_queue.clear()
	_waited.emit()
	if modal.is_open():
		modal.press(&"")


# --- building ------------------------------------------------------------------------------------

func _build() -> void:
	_frame = UiKit.safe_frame(self, 6)
	_frame.resized.connect(_layout)

	_top_bar = UiKit.hbox(14)
	_top_bar.name = "TopBar"
	_frame.add_child(_top_bar)
	var menu := UiKit.button("≡", _open_pause_menu, 24, Vector2(56, 44))
	menu.name = "MenuButton"
	menu.focus_mode = Control.FOCUS_NONE
	menu.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_top_bar.add_child(menu)
	_level_label = UiKit.label("", 20)
	_level_label.name = "Levels"
	_level_label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_top_bar.add_child(_level_label)
	_deal_label = UiKit.label("", 20, Color(1.0, 0.88, 0.55))
	_deal_label.name = "DealInfo"
	_deal_label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_top_bar.add_child(_deal_label)
	var spacer := Control.new()
	spacer.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	spacer.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_top_bar.add_child(spacer)
	_mode_label = UiKit.label("MODE_TRAINING" if mode == &"training" else "MODE_MATCH", 18, Color(0.8, 0.95, 0.85))
	_top_bar.add_child(_mode_label)
	if mode == &"training":
		heat_button = UiKit.button("BTN_HEAT_MAP", func() -> void:
			Settings.set_value(&"heat_map", heat_button.button_pressed), 18, Vector2(0, 44))
		heat_button.name = "HeatButton"
		heat_button.focus_mode = Control.FOCUS_NONE
		heat_button.toggle_mode = true
		heat_button.button_pressed = Settings.get_value(&"heat_map")
		_top_bar.add_child(heat_button)
	history_button = UiKit.button("HISTORY_TITLE", _toggle_history, 18, Vector2(0, 44))
	history_button.name = "HistoryButton"
	history_button.focus_mode = Control.FOCUS_NONE
	history_button.toggle_mode = true
	history_button.button_pressed = Settings.get_value(&"history_open")
	_top_bar.add_child(history_button)

	for seat in 4:
		var badge := SeatBadge.new(seat, seat != 0)
		_frame.add_child(badge)
		badges.append(badge)
	var levels: Array = config.get("ai_levels", [2, 2, 2])
	for seat in range(1, 4):
		badges[seat].ai_level = int(levels[seat - 1])

	zone = PlayZone.new()
	zone.name = "PlayZone"
	_frame.add_child(zone)

	history = HistoryPanel.new()
	_frame.add_child(history)
	history.visible = Settings.get_value(&"history_open")

	_tribute_info = PanelContainer.new()
	_tribute_info.name = "TributeInfo"
	_tribute_info.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_tribute_lines = UiKit.vbox(4)
	_tribute_info.add_child(_tribute_lines)
	_tribute_info.visible = false
	_frame.add_child(_tribute_info)

	hand = HandView.new()
	hand.name = "Hand"
	_frame.add_child(hand)

	layer = CardLayer.new()
	layer.name = "Cards"
	_frame.add_child(layer)
	layer.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	layer.prewarm()
	hand.layer = layer
	zone.layer = layer
	hand.group_view = Settings.get_value(&"group_view")
	hand.selection_changed.connect(_on_selection_changed)
	hand.play_requested.connect(_on_play_pressed)
	hand.grouping_requested.connect(_on_grouping_requested)

	_flying_back = CardView.new()
	_flying_back.name = "FlyingBack"
	_flying_back.face_up = false
	_flying_back.visible = false
	_flying_back.z_index = 450
	_frame.add_child(_flying_back)

	_action_bar = UiKit.hbox(12)
	_action_bar.name = "ActionBar"
	_action_bar.alignment = BoxContainer.ALIGNMENT_CENTER
	_frame.add_child(_action_bar)
	pass_button = _action_button("BTN_PASS", _on_pass_pressed, "PassButton")
	hint_button = _action_button("BTN_HINT", _on_hint_pressed, "HintButton")
	play_button = _action_button("BTN_PLAY", _on_play_pressed, "PlayButton")
	sort_button = _action_button("BTN_SORT", _on_sort_pressed, "SortButton")

	readings_box = UiKit.hbox(8)
	readings_box.name = "Readings"
	_frame.add_child(readings_box)

	_my_countdown = ProgressBar.new()
	_my_countdown.name = "MyCountdown"
	_my_countdown.show_percentage = false
	_my_countdown.max_value = 1.0
	_my_countdown.visible = false
	_frame.add_child(_my_countdown)

	_status = UiKit.label("", 20, Color(1, 1, 0.85))
	_status.name = "Status"
	_status.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_status.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_status.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_frame.add_child(_status)

	training = TrainingTools.new()
	training.name = "Training"
	training.table = self
	_frame.add_child(training)

	banner = Banner.new()
	_frame.add_child(banner)
	_toast = UiKit.label("", 22, Color(1, 0.8, 0.7))
	_toast.name = "Toast"
	_toast.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_toast.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_toast.add_theme_constant_override(&"outline_size", 6)
	_toast.add_theme_color_override(&"font_outline_color", Color(0, 0, 0, 0.8))
	_toast.modulate.a = 0.0
	_toast.z_index = 550
	_frame.add_child(_toast)

	modal = Modal.new()
	add_child(modal)
	_refresh_controls()
	_update_top_bar()


func _action_button(key: String, callback: Callable, node_name: String) -> Button:
	var b := UiKit.button(key, callback, 22, Vector2(128, 52))
	b.name = node_name
	b.focus_mode = Control.FOCUS_NONE  # Space/Enter are table shortcuts, not "press the focused button"
	_action_bar.add_child(b)
	return b


# --- layout --------------------------------------------------------------------------------------

func _layout() -> void:
	if _frame == null:
		return
	var s := _frame.size
	if s.x < 10.0:
		return
	var view := get_viewport_rect().size
	var tablet := UiLayout.is_tablet(view)
	var top_h := 50.0
	_top_bar.position = Vector2.ZERO
	_top_bar.size = Vector2(s.x, top_h)
	var card_h := UiLayout.hand_card_height(view)
	var hand_h := card_h + HandView.LIFT + 18.0
	hand.card_height = card_h
	hand.position = Vector2(0, s.y - hand_h)
	hand.size = Vector2(s.x, hand_h)
	var bar_h := 58.0
	_action_bar.position = Vector2(0, s.y - hand_h - bar_h)
	_action_bar.size = Vector2(s.x, bar_h - 6.0)
	_my_countdown.position = Vector2(s.x * 0.3, s.y - hand_h - 8.0)
	_my_countdown.size = Vector2(s.x * 0.4, 6.0)
	readings_box.position = Vector2(8, s.y - hand_h - bar_h - 52.0)
	readings_box.size = Vector2(s.x * 0.45, 46)
	var side_w := minf(320.0, s.x * 0.24) if history.visible else 0.0
	history.position = Vector2(s.x - side_w, top_h + 4.0)
	history.size = Vector2(side_w, maxf(s.y - hand_h - bar_h - top_h - 12.0, 120.0))
	_middle = Rect2(0, top_h, s.x - side_w, s.y - hand_h - bar_h - top_h)
	var m := _middle
	var play_h := clampf(card_h * (0.68 if tablet else 0.6), 64.0, 150.0)
	zone.card_height = play_h
	zone.position = Vector2.ZERO
	zone.size = s

	for badge in badges:
		badge.reset_size()
	var north := badges[2]
	north.position = Vector2(m.get_center().x - north.size.x / 2.0, m.position.y + 2.0)
	var west := badges[3]
	west.position = Vector2(m.position.x + 6.0, m.get_center().y - west.size.y / 2.0 - 10.0)
	var east := badges[1]
	east.position = Vector2(m.end.x - east.size.x - 6.0, m.get_center().y - east.size.y / 2.0 - 10.0)
	var me := badges[0]
	me.position = Vector2(8.0, s.y - hand_h - bar_h + 2.0)

	var gap := 18.0
	zone.slot_centers[2] = Vector2(m.get_center().x, north.position.y + north.size.y + gap + play_h / 2.0)
	zone.slot_centers[0] = Vector2(m.get_center().x, m.end.y - play_h / 2.0 - 8.0)
	zone.slot_centers[3] = Vector2(west.position.x + west.size.x + gap, m.get_center().y)
	zone.slot_centers[1] = Vector2(east.position.x - gap, m.get_center().y)
	zone.slot_align = [0, -1, 0, 1]

	# Between the west and east badges, so a long announcement wraps instead of covering them.
	var banner_x := west.position.x + west.size.x + 8.0
	banner.position = Vector2(banner_x, m.get_center().y - 60.0)
	banner.size = Vector2(maxf(east.position.x - 8.0 - banner_x, 200.0), 120.0)
	banner.refit()
	_status.position = Vector2(m.position.x, zone.slot_centers[0].y - play_h / 2.0 - 36.0)
	_status.size = Vector2(m.size.x, 30.0)
	_toast.position = Vector2(0, s.y - hand_h - bar_h - 40.0)
	_toast.size = Vector2(s.x, 34.0)
	_place_tribute_info()
	training.layout(m, s)
	zone.relayout(level)


# --- the event queue -----------------------------------------------------------------------------

func _enqueue(event: Dictionary) -> void:
	_queue.append(event)
	controller.set_paused(true)
	if not _draining:
		_drain()


## True when every event has been shown and no panel waits for the player.
func is_idle() -> bool:
	return not _draining and _queue.is_empty() and not modal.is_open()


func _drain() -> void:
	_draining = true
	_lock(true)
	while not _queue.is_empty():
		var event: Dictionary = _queue.pop_front()
		await _handle(event)
		if _closing:
			return
		event_handled.emit(event)
	_draining = false
	if not modal.is_open():
		controller.set_paused(false)
		_lock(false)
	_refresh_controls()
	became_idle.emit()


func _lock(locked: bool) -> void:
	hand.locked = locked or modal.is_open()
	EventBus.input_lock_changed.emit(hand.locked)


func _handle(e: Dictionary) -> void:
	match e["signal"]:
		&"match_started":
			local_seat = int(e.local_seat)
			spectator = local_seat < 0
			match_over = false
			badges[0].ai_level = int(config.get("human_seat_level", 2)) if spectator else 0
			EventBus.match_started.emit(int(e.seed))
		&"deal_started":
			await _on_deal_started(e)
		&"hand_changed":
			await _on_hand_changed(PackedInt32Array(e.hand))
		&"tribute_phase":
			await _on_tribute_phase(e)
		&"tribute_given":
			await _on_exchange(int(e.from), int(e.to), int(e.card), true)
		&"return_phase":
			_on_return_phase(e)
		&"card_returned":
			await _on_exchange(int(e.from), int(e.to), int(e.card), false)
		&"turn_started":
			_on_turn_started(int(e.seat), bool(e.can_pass), float(e.time_limit))
		&"cards_played":
			await _on_cards_played(int(e.seat), e.play)
		&"passed":
			_on_passed(int(e.seat))
		&"table_cleared":
			await _on_table_cleared(int(e.leader), false)
		&"partner_takes_lead":
			await _on_table_cleared(int(e.seat), true)
		&"cards_left":
			counts[int(e.seat)] = int(e.count)
			badges[int(e.seat)].warn_at = maxi(badges[int(e.seat)].warn_at, 0)
			_update_counts()
		&"player_finished":
			await _on_player_finished(int(e.seat), int(e.place))
		&"deal_ended":
			await _on_deal_ended(e)
		&"match_ended":
			await _on_match_ended(e)
		&"ai_thinking":
			badges[int(e.seat)].thinking = true
		&"ai_decided":
			badges[int(e.seat)].thinking = false
			training.on_ai_decided(int(e.seat))
		&"turn_timed_out":
			if int(e.seat) == local_seat:
				toast(tr("TIMED_OUT"))
		&"error":
			_show_error(int(e.code))
		&"surrender_proposed", &"surrender_voted":
			pass


# --- event handlers ------------------------------------------------------------------------------

func _on_deal_started(e: Dictionary) -> void:
	deal_no = int(e.deal_no)
	level = int(e.level)
	declarer = int(e.declarer)
	var st := controller.state()
	if st.has("team_levels"):
		team_levels = PackedInt32Array(st.team_levels)
	zone.reset()
	history.clear()
	_clear_tribute_info()
	places = PackedInt32Array([0, 0, 0, 0])
	counts = PackedInt32Array([27, 27, 27, 27])
	for seat in 4:
		badges[seat].place = 0
		badges[seat].thinking = false
		badges[seat].active = false
	_update_counts()
	hand.clear()
	hand.set_level(level)
	duty = &""
	_fresh_deal = true
	_update_top_bar()
	banner.announce(tr("DEAL_START_FMT").format({n = deal_no + 1, level = Cards.rank_label(level)}), 0.9)
	if spectator:
		await _on_hand_changed(controller.seat_hand(0))


func _on_hand_changed(ids: PackedInt32Array) -> void:
	if _fresh_deal:
		_fresh_deal = false
		var center := _frame.global_position + _middle.get_center()
		hand.set_cards(ids, center, 0.018)
		var t := Settings.anim_time(0.3) + (0.018 * ids.size() if Settings.animations_on() else 0.0)
		_deal_sounds(ids.size())
		await _wait(t)
		if _closing:
			return
	else:
		hand.set_cards(ids)
	counts[0 if spectator else local_seat] = ids.size()
	_update_counts()
	training.on_hand_changed()


func _on_tribute_phase(e: Dictionary) -> void:
	var payers := PackedInt32Array(e.payers)
	var names := PackedStringArray()
	for seat in payers:
		names.append(tr("SEAT_%d" % seat))
	var text: String
	if bool(e.resisted):
		text = tr("RESIST_FMT").format({seats = tr("LIST_SEP").join(names)})
	else:
		text = tr("TRIBUTE_FMT").format({seats = tr("LIST_SEP").join(names)})
	_add_tribute_line(text)
	banner.announce(text, 1.2)
	Sfx.play(&"tribute")
	await _wait(Settings.anim_time(0.6))
	if _closing:
		return
	if not bool(e.resisted) and not spectator and local_seat in payers:
		_begin_duty(&"tribute")


func _on_return_phase(e: Dictionary) -> void:
	var receivers := PackedInt32Array(e.receivers)
	if not spectator and local_seat in receivers:
		_begin_duty(&"return")


## A tribute (or a return) moves from one seat to another; `card` -1 = not shown to us.
func _on_exchange(from: int, to: int, card: int, is_tribute: bool) -> void:
	var key := "TRIBUTE_GIVEN_FMT" if is_tribute else "RETURN_GIVEN_FMT"
	var what := PlayText.card_text(card) if card >= 0 else tr("A_CARD")
	_add_tribute_line(tr(key).format({from = tr("SEAT_%d" % from), to = tr("SEAT_%d" % to), card = what}))
	if from == local_seat or to == local_seat:
		duty = &"" if from == local_seat else duty
		_refresh_controls()
	var t := Settings.anim_time(0.45)
	if t <= 0.0:
		return
	var start := _seat_anchor(from)
	var end := _seat_anchor(to)
	var view: CardView
	if card >= 0 and not layer.is_shown(card):
		view = layer.view_for(card)
		view.level = level
	else:
		view = _flying_back
		view.visible = true
	view.z_index = 450
	view.size = zone.card_size()
	view.position = layer.to_layer(start) - view.size / 2.0
	view.new_tween().tween_property(view, "position", layer.to_layer(end) - view.size / 2.0, t) \
			.set_trans(Tween.TRANS_QUAD).set_ease(Tween.EASE_IN_OUT)
	Sfx.play(&"deal")
	await _wait(t + 0.05)
	if _closing:
		return
	if view == _flying_back:
		_flying_back.visible = false
	elif card >= 0 and not (card in hand.cards()):
		layer.release(card)


func _on_turn_started(seat: int, pass_ok: bool, time_limit: float) -> void:
	turn_seat = seat
	can_pass = pass_ok
	for s in 4:
		badges[s].active = s == seat
		badges[s].set_countdown(time_limit if s == seat and s != local_seat else 0.0)
	if seat == local_seat and not spectator:
		_begin_duty(&"play")
		_turn_limit_ms = int(time_limit * 1000.0)
		_turn_deadline_ms = Time.get_ticks_msec() + _turn_limit_ms
		_my_countdown.visible = _turn_limit_ms > 0
		Sfx.play(&"your_turn")
	else:
		_my_countdown.visible = false
		if duty == &"play":
			duty = &""
	_refresh_controls()


func _on_cards_played(seat: int, play: Dictionary) -> void:
	var ids := PackedInt32Array(play.get("cards", PackedInt32Array()))
	var views: Array[CardView] = []
	var from := _seat_anchor(seat)
	if (seat == local_seat and not spectator) or (spectator and seat == 0):
		views = hand.detach(ids)
		if seat == local_seat:
			duty = &""
			_my_countdown.visible = false
	counts[seat] = maxi(counts[seat] - ids.size(), 0)
	_update_counts()
	badges[seat].thinking = false
	if _tribute_info.visible:
		_hide_tribute_info_later()
	history.add(seat, play)
	var t := zone.show_play(seat, ids, from, views, level)
	var type := String(play.get("type", ""))
	if type == "FourKings":
		Sfx.play(&"four_jokers")
		banner.announce(tr("play.four_kings"), 1.0)
		_shake(14.0)
	elif bool(play.get("bomb", false)):
		Sfx.play(&"bomb")
		banner.announce(tr("BOMB_BANNER"), 0.8)
		_shake(8.0)
	else:
		Sfx.play(&"play")
	training.on_cards_played(seat)
	await _wait(t)
	if _closing:
		return


func _on_passed(seat: int) -> void:
	zone.show_pass(seat)
	history.add(seat, {})
	badges[seat].thinking = false
	Sfx.play(&"pass")
	if seat == local_seat:
		duty = &""
		_my_countdown.visible = false


func _on_table_cleared(leader: int, partner: bool) -> void:
	var t := zone.gather(_middle.get_center())
	Sfx.play(&"table_cleared")
	history.new_round()
	var key := "PARTNER_TAKES_LEAD_FMT" if partner else "TABLE_CLEARED_FMT"
	banner.announce(tr(key).format({seat = tr("SEAT_%d" % leader)}), 1.0)
	await _wait(maxf(t, Settings.anim_time(0.5)))
	if _closing:
		return


func _on_player_finished(seat: int, place: int) -> void:
	places[seat] = place
	badges[seat].place = place
	counts[seat] = 0
	_update_counts()
	banner.announce(tr("FINISHED_FMT").format({seat = tr("SEAT_%d" % seat), place = UiKit.place_text(place)}), 0.9)
	await _wait(Settings.anim_time(0.5))
	if _closing:
		return


func _on_deal_ended(e: Dictionary) -> void:
	duty = &""
	_my_countdown.visible = false
	for b in badges:
		b.active = false
		b.set_countdown(0.0)
	var order := PackedInt32Array(e.order)
	var changes: Dictionary = e.level_changes
	var before := PackedInt32Array(changes.get("before", team_levels))
	var after := PackedInt32Array(changes.get("after", team_levels))
	team_levels = after
	_update_top_bar()
	var winner := int(changes.get("winner_team", -1))
	var lines: Array = []
	for i in order.size():
		lines.append("%s  %s" % [UiKit.place_text(i + 1), tr("SEAT_%d" % order[i])])
	for team in 2:
		var delta := after[team] - before[team]
		lines.append(tr("LEVEL_CHANGE_FMT").format({team = tr("TEAM_US" if team == 0 else "TEAM_THEM"),
			before = Cards.rank_label(before[team]), after = Cards.rank_label(after[team]),
			delta = ("+%d" % delta) if delta > 0 else ("%d" % delta) if delta < 0 else "±0"}))
	var my_team := 0 if spectator else local_seat % 2
	var title := tr("DEAL_WON") if winner == my_team else tr("DEAL_LOST")
	if winner == my_team:
		Sfx.play(&"win")
	last_record = controller.save_record()
	modal.open(tr("DEAL_ENDED_FMT").format({n = deal_no + 1}) + " — " + title, lines, [[&"next", "BTN_NEXT_DEAL"]])
	_lock(true)
	_refresh_controls()
	deal_panel_shown.emit(e)
	await modal.closed
	if _closing:
		return


func _on_match_ended(e: Dictionary) -> void:
	match_over = true
	duty = &""
	var winner := int(e.winner_team)
	var my_team := 0 if spectator else local_seat % 2
	var title: String
	if winner < 0:
		title = tr("MATCH_DRAW")
	elif winner == my_team:
		title = tr("MATCH_WON")
		Sfx.play(&"win")
	else:
		title = tr("MATCH_LOST")
	last_record = controller.save_record()
	var lines: Array = [tr("MATCH_REASON_" + String(e.reason).to_upper())]
	lines.append(tr("FINAL_LEVELS_FMT").format({us = Cards.rank_label(team_levels[0]), them = Cards.rank_label(team_levels[1])}))
	var buttons: Array = []
	if last_record != "":
		buttons.append([&"replay", "BTN_WATCH_REPLAY"])
	buttons.append([&"again", "BTN_PLAY_AGAIN"])
	buttons.append([&"menu", "BTN_MENU"])
	modal.open(title, lines, buttons)
	_lock(true)
	match_panel_shown.emit(e)
	var choice: StringName = await modal.closed
	if _closing:
		return
	match choice:
		&"replay":
			EventBus.replay_requested.emit(last_record)
		&"again":
			var again := config.duplicate(true)
			again.erase("seed")
			EventBus.match_requested.emit(again)
		_:
			EventBus.screen_requested.emit(&"menu")


# --- the player's duties and buttons -------------------------------------------------------------

func _begin_duty(what: StringName) -> void:
	duty = what
	hand.clear_selection()
	training.on_duty(what)
	match what:
		&"tribute":
			hand.set_hinted(controller.tribute_options())
		&"return":
			hand.set_hinted(controller.return_options())
	_refresh_controls()


func _refresh_controls() -> void:
	if pass_button == null:
		return
	var idle := not _draining and not modal.is_open()
	var acting := idle and not spectator and duty != &"" and not match_over
	pass_button.visible = not spectator
	play_button.visible = not spectator
	hint_button.visible = not spectator and mode == &"training" and Settings.get_value(&"hints")
	sort_button.visible = hand.card_count() > 0
	pass_button.disabled = not (acting and duty == &"play" and can_pass)
	hint_button.disabled = not (acting and duty == &"play")
	var selected := hand.selected_ids()
	play_button.disabled = not acting or selected.is_empty() or (duty != &"play" and selected.size() != 1)
	play_button.text = {&"tribute": "BTN_GIVE_TRIBUTE", &"return": "BTN_RETURN"}.get(duty, "BTN_PLAY")
	hand.waiting = not spectator and duty == &"" and not match_over
	if modal.is_open():
		# The panel speaks for the table; a status line behind it would be stale.
		_status.text = ""
	elif duty == &"" and not spectator and turn_seat >= 0 and turn_seat != local_seat and not match_over:
		_status.text = tr("WAITING_FOR_FMT").format({seat = tr("SEAT_%d" % turn_seat)})
	elif duty == &"play" and idle:
		_status.text = tr("YOUR_TURN") if can_pass else tr("YOUR_LEAD")
	elif duty == &"tribute":
		_status.text = tr("TRIBUTE_PROMPT")
	elif duty == &"return":
		_status.text = tr("RETURN_PROMPT")
	else:
		_status.text = ""
	training.refresh()


func _process(_delta: float) -> void:
	if _my_countdown.visible and _turn_limit_ms > 0:
		# The engine's clock is the truth (it stops while the table animates); local time is the
		# fallback when it has none.
		var left_s: float = controller.time_left() if controller.engine != null else -1.0
		var left := left_s * 1000.0 if left_s >= 0.0 else float(_turn_deadline_ms - Time.get_ticks_msec())
		_my_countdown.value = clampf(left / _turn_limit_ms, 0.0, 1.0)


func _on_play_pressed() -> void:
	if not is_idle() or spectator or match_over:
		return
	var selected := hand.selected_ids()
	match duty:
		&"tribute", &"return":
			if selected.size() != 1:
				toast(tr("SELECT_ONE_CARD"))
				return
			var code := controller.give_tribute(selected[0]) if duty == &"tribute" else controller.return_card(selected[0])
			if code == 0:
				duty = &""
				hand.set_hinted(PackedInt32Array())
			_refresh_controls()
		&"play":
			play_selection(-1)


## Plays the selected cards with a reading index (-1 = the default), after the optional
## confirmation. Returns the engine's code (or -1 when nothing was sent).
func play_selection(reading: int) -> int:
	var selected := hand.selected_ids()
	if duty != &"play" or selected.is_empty() or not is_idle():
		return -1
	var info: Dictionary = training.selection_info()
	if info.has("playable") and (info.playable as Array).is_empty():
		toast(tr("CANNOT_PLAY_SELECTION"))
		Sfx.play(&"error")
		return -1
	if Settings.get_value(&"confirm_play"):
		var text := _selection_text(info, reading)
		modal.open(tr("CONFIRM_PLAY_TITLE"), [text], [[&"yes", "BTN_PLAY"], [&"no", "BTN_CANCEL"]])
		_lock(true)
		var answer: StringName = await modal.closed
		if _closing:
			return -1
		_lock(false)
		if answer != &"yes" or duty != &"play":
			return -1
	var code := controller.play(selected, reading)
	if code != 0:
		_show_error(code)
	return code


func _selection_text(info: Dictionary, reading: int) -> String:
	var playable: Array = info.get("playable", [])
	for p: Dictionary in playable:
		if reading < 0 or int(p.get("index", -1)) == reading:
			return PlayText.describe(p)
	return Cards.notation_list(hand.selected_ids())


func _on_pass_pressed() -> void:
	if not is_idle() or duty != &"play" or not can_pass:
		return
	var code := controller.pass_turn()
	if code != 0:
		_show_error(code)


func _on_hint_pressed() -> void:
	if not is_idle() or duty != &"play":
		return
	training.next_hint()


func _on_sort_pressed() -> void:
	hand.group_view = not hand.group_view
	Settings.set_value(&"group_view", hand.group_view)


func _on_selection_changed(_ids: PackedInt32Array) -> void:
	training.on_selection_changed()
	_refresh_controls()


func _on_grouping_requested(_at: Vector2) -> void:
	if modal.is_open():
		return
	var buttons: Array = []
	if hand.selected_ids().size() >= 2:
		buttons.append([&"group", "BTN_GROUP_SELECTION"])
	if not hand.manual_groups().is_empty():
		buttons.append([&"ungroup", "BTN_UNGROUP"])
	buttons.append([&"view", "BTN_VIEW_BY_RANK" if hand.group_view else "BTN_VIEW_BY_GROUP"])
	buttons.append([&"close", "BTN_CANCEL"])
	modal.open(tr("GROUPING_TITLE"), [], buttons)
	_lock(true)
	var choice: StringName = await modal.closed
	if _closing:
		return
	_lock(_draining)
	match choice:
		&"group":
			hand.group_selection()
		&"ungroup":
			hand.ungroup()
		&"view":
			_on_sort_pressed()


func _open_pause_menu() -> void:
	if modal.is_open():
		return
	controller.set_paused(true)
	var buttons: Array = [[&"resume", "BTN_RESUME"]]
	if not spectator and not match_over and controller.engine != null and controller.engine.has_match():
		buttons.append([&"surrender", "BTN_SURRENDER"])
	buttons.append([&"menu", "BTN_LEAVE"])
	modal.open(tr("PAUSE_TITLE"), [], buttons)
	_lock(true)
	var choice: StringName = await modal.closed
	if _closing:
		return
	if choice == &"menu":
		leave()
		return
	if choice == &"surrender":
		# The partner and both opponents vote; AI seats accept at once, so the match ends.
		var code: int = controller.engine.propose_surrender()
		if code != 0:
			_show_error(code)
	if not _draining:
		controller.set_paused(false)
		_lock(false)
	_refresh_controls()


## Leaves for the menu, saving the match so far as a replay.
func leave() -> void:
	if not match_over:
		last_record = controller.save_record()
	EventBus.screen_requested.emit(&"menu")


func _toggle_history() -> void:
	history.visible = history_button.button_pressed
	Settings.set_value(&"history_open", history.visible)
	_layout()


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or key.echo:
		return
	if modal.is_open():
		return
	match key.keycode:
		KEY_SPACE:
			_on_hint_pressed()
		KEY_ENTER, KEY_KP_ENTER:
			_on_play_pressed()
		KEY_P:
			_on_pass_pressed()
		KEY_S:
			_on_sort_pressed()
		KEY_ESCAPE:
			_open_pause_menu()
		_:
			return
	get_viewport().set_input_as_handled()


func _on_setting_changed(key: StringName, _value: Variant) -> void:
	match key:
		&"card_size":
			_layout()
		&"hints", &"heat_map", &"ai_debug", &"why_panel":
			_refresh_controls()


# --- helpers ---------------------------------------------------------------------------------------

func _seat_anchor(seat: int) -> Vector2:
	if seat == local_seat or (spectator and seat == 0):
		return hand.get_global_rect().get_center()
	return badges[seat].card_anchor()


func _update_counts() -> void:
	for seat in 4:
		badges[seat].count = -1 if seat == 0 else counts[seat]


func _update_top_bar() -> void:
	_level_label.text = tr("LEVELS_FMT").format({us = Cards.rank_label(team_levels[0]), them = Cards.rank_label(team_levels[1])})
	var wild := "♥" + Cards.rank_label(level)
	_deal_label.text = tr("PLAYING_FMT").format({level = Cards.rank_label(level), wild = wild})


func _deal_sounds(n: int) -> void:
	if not Settings.animations_on():
		Sfx.play(&"deal")
		return
	var tw := create_tween()
	for i in mini(n / 3, 9):
		tw.tween_callback(Sfx.play.bind(&"deal", randf_range(0.9, 1.1)))
		tw.tween_interval(0.05)


func _shake(strength: float) -> void:
	if not Settings.effects_on():
		return
	if _shake_tween != null:
		_shake_tween.kill()
	_shake_tween = create_tween()
	for i in 6:
		var off := Vector2(randf_range(-1, 1), randf_range(-1, 1)) * strength * (1.0 - i / 6.0)
		_shake_tween.tween_property(_frame, "position", off, 0.04)
	_shake_tween.tween_property(_frame, "position", Vector2.ZERO, 0.04)


## Waits `seconds` on a tween bound to this node (never resumes if the table is freed).
func _wait(seconds: float) -> void:
	if seconds <= 0.0 or _closing:
		return
	_wait_tween = create_tween()
	_wait_tween.tween_interval(seconds)
	_wait_tween.tween_callback(_waited.emit)
	await _waited


func toast(text: String) -> void:
	_toast.text = text
	if _toast_tween != null:
		_toast_tween.kill()
	_toast.modulate.a = 1.0
	_toast_tween = create_tween()
	_toast_tween.tween_interval(1.6)
	_toast_tween.tween_property(_toast, "modulate:a", 0.0, 0.4)


func _show_error(code: int) -> void:
	var key := "ERR_%d" % code
	var text := tr(key)
	toast(text if text != key else tr("ERR_GENERIC").format({code = code}))
	Sfx.play(&"error")


func _add_tribute_line(text: String) -> void:
	var l := UiKit.label(text, 19)
	l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_tribute_lines.add_child(l)
	_tribute_info.visible = true
	_place_tribute_info.call_deferred()  # the panel has its new size after this frame's sort


## Whether the tribute / return / resist lines are on screen (tests, screenshots).
func tribute_info_shown() -> bool:
	return _tribute_info.visible


## Between the north play and the south play, clear of both.
func _place_tribute_info() -> void:
	_tribute_info.reset_size()
	_tribute_info.position = Vector2(_middle.get_center().x - _tribute_info.size.x / 2.0,
		(zone.slot_centers[2].y + zone.slot_centers[0].y) / 2.0 - _tribute_info.size.y / 2.0)


func _clear_tribute_info() -> void:
	for c in _tribute_lines.get_children():
		_tribute_lines.remove_child(c)
		c.queue_free()
	_tribute_info.visible = false


func _hide_tribute_info_later() -> void:
	if _tribute_hide_tween != null and _tribute_hide_tween.is_valid():
		return
	_tribute_hide_tween = create_tween()
	_tribute_hide_tween.tween_interval(maxf(Settings.anim_time(1.5), 0.6))
	_tribute_hide_tween.tween_callback(_clear_tribute_info)
