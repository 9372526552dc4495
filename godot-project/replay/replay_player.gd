extends Control
## Plays back a saved match (through its ReplayController): every hand open, each seat's latest
## play of the round in the centre, levels, finishing places and the round history — at any
## position. Step, seek (slider), play/pause with a speed, and "AI's view": what the AI would
## weigh for the seat that decides at this point (ReplayController.ai_view).
## The screen is redrawn from the record's state at each position (pooled card views, so seeking
## allocates no nodes).

## The shown position changed (tests wait on it).
signal position_shown(position: int)

const SPEEDS: Array[float] = [0.5, 1.0, 2.0, 4.0]
const STEP_SECONDS := 0.9

var record := ""
var controller: ReplayController
@onready var layer: CardLayer = %Cards
@onready var zone: PlayZone = %PlayZone
@onready var history: HistoryPanel = %History
@onready var badges: Array[SeatBadge] = [%Seat0, %Seat1, %Seat2, %Seat3]
## Every seat, the player's included, is an open hand in plain rank order: one layout, one card
## size per hand, whatever position the replay seeks to.
@onready var open_hands: Array[OpenHand] = [%OpenHand0, %OpenHand1, %OpenHand2, %OpenHand3]
@onready var modal: Modal = %Modal
@onready var slider: HSlider = %Seek
var playing := false

@onready var _frame: Control = %Frame
@onready var _top: HBoxContainer = %TopBar
@onready var _controls: HBoxContainer = %Controls
@onready var _position_label: Label = %PositionInfo
@onready var _deal_label: Label = %DealInfo
@onready var _play_button: Button = %PlayPause
@onready var _speed: OptionButton = %Speed
@onready var _error: Label = %Error
## The deal review over the replay, while open.
var review_panel: ReviewPanel
## Worlds a set for the review (0: the review's default; tests use fewer).
var review_worlds := 0
## The seat the review is of (-1: the record's first seat no AI played).
var review_seat := -1
var _elapsed := 0.0
var _setting_slider := false
var _level := 2
var _events := {}  # position -> the events (MatchEvent) of the action that led there (cache)


## Called by the app before the screen enters the tree: {record: name}.
func open(params: Dictionary) -> void:
	record = String(params.get("record", ""))
	# An online match's record: the review is of the seat the player had.
	review_seat = OnlineRecords.seat_of(record)


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	_build()
	resized.connect(_layout)
	_frame.resized.connect(_layout)
	controller = ReplayController.new()
	controller.name = "ReplayController"
	add_child(controller)
	if record == "" or controller.open_record(record) != 0:
		_fail()
		return
	slider.max_value = controller.record_length()
	SeatKinds.show(badges, SeatKinds.from_record(controller.players()))
	_layout()
	show_position(0)
	set_process(true)


func _fail() -> void:
	_error.visible = true
	_controls.visible = false
	set_process(false)


## Wires the nodes of replay_player.tscn (the layout is the scene's; _layout sizes the rows).
func _build() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"replays"))
	layer.prewarm()
	zone.layer = layer
	for oh in open_hands:
		oh.layer = layer
	%Start.pressed.connect(seek.bind(0))
	%StepBack.pressed.connect(step_back)
	_play_button.pressed.connect(toggle_play)
	%StepForward.pressed.connect(step_forward)
	%End.pressed.connect(func() -> void: seek(int(slider.max_value)))
	slider.value_changed.connect(func(v: float) -> void:
		if not _setting_slider:
			seek(int(v)))
	%AiView.pressed.connect(show_ai_view)
	var review_button := Button.new()
	review_button.name = "ReviewButton"
	review_button.text = "REVIEW_BUTTON"
	review_button.custom_minimum_size = Vector2(0, 44)
	review_button.focus_mode = Control.FOCUS_NONE
	review_button.pressed.connect(open_review)
	_top.add_child(review_button)


func _layout() -> void:
	var s := _frame.size
	if s.x < 10.0:
		return
	_top.position = Vector2.ZERO
	# The bar is as tall as its buttons ask (larger on a phone's screen): the seats start under it.
	var top_h := maxf(48.0, _top.get_combined_minimum_size().y)
	_top.size = Vector2(s.x, top_h)
	var card_h := clampf(s.y * 0.17, 84.0, 180.0)
	var hand_h := card_h + 12.0
	var south := open_hands[0]
	south.card_height = card_h
	south.position = Vector2(0, s.y - hand_h)
	south.size = Vector2(s.x, hand_h)
	var controls_y := s.y - hand_h - 54.0
	_controls.position = Vector2(8, controls_y)
	_controls.size = Vector2(s.x - 16.0, 48)
	var side_w := minf(300.0, s.x * 0.2)
	history.position = Vector2(s.x - side_w, top_h + 4.0)
	history.size = Vector2(side_w, maxf(controls_y - top_h - 10.0, 80.0))
	var m := Rect2(0, top_h + 4.0, s.x - side_w - 8.0, controls_y - top_h - 8.0)
	for b in badges:
		b.reset_size()
	# Opponents' hands are as large as the rows allow: two rows of cards each.
	var open_h := clampf(m.size.y * 0.2, 56.0, 120.0)
	var two_rows := open_h * 1.45
	var gap := 8.0
	# North: badge at the left of its hand, across the top.
	badges[2].position = Vector2(m.get_center().x - m.size.x * 0.3 - badges[2].size.x - gap, m.position.y)
	badges[2].position.x = maxf(badges[2].position.x, m.position.x + 4.0)
	var north_x := badges[2].position.x + badges[2].size.x + gap
	open_hands[2].position = Vector2(north_x, m.position.y)
	open_hands[2].size = Vector2(maxf(m.end.x - 4.0 - north_x, 60.0), two_rows)
	var side_top := m.position.y + two_rows + gap
	var side_w_hand := m.size.x * 0.34
	badges[3].position = Vector2(m.position.x + 4.0, side_top)
	open_hands[3].position = Vector2(m.position.x + 4.0, side_top + badges[3].size.y + 4.0)
	open_hands[3].size = Vector2(side_w_hand, two_rows)
	badges[1].position = Vector2(m.end.x - badges[1].size.x - 4.0, side_top)
	open_hands[1].position = Vector2(m.end.x - side_w_hand - 4.0, side_top + badges[1].size.y + 4.0)
	open_hands[1].size = Vector2(side_w_hand, two_rows)
	badges[0].position = Vector2(m.position.x + 4.0, m.end.y - badges[0].size.y)
	# The side hands reach down to the player's badge: room for two whole rows of large cards.
	var side_hand_top := open_hands[3].position.y
	var side_h := maxf(badges[0].position.y - gap - side_hand_top, two_rows)
	open_hands[3].size.y = side_h
	open_hands[1].size.y = side_h
	open_hands[2].card_height = open_h
	for seat in [1, 3]:
		open_hands[seat].card_height = clampf((side_h - 4.0) / 2.0, 56.0, 140.0)
	# Plays: north's under its hand, west's and east's between the side hands, the player's above
	# the controls, each in its own box.
	var play_h := clampf(card_h * 0.6, 50.0, 110.0)
	zone.card_height = play_h
	zone.size = s
	var mid_l := open_hands[3].position.x + side_w_hand + gap
	var mid_r := open_hands[1].position.x - gap
	var mid_x := (mid_l + mid_r) / 2.0
	var play_y := side_top + (two_rows + badges[1].size.y - play_h) / 2.0
	zone.set_slot(2, Rect2(mid_l, side_top, maxf(mid_r - mid_l, 1.0), play_h), 0)
	zone.set_slot(3, Rect2(mid_l, side_top + play_h + gap, maxf(mid_x - gap / 2.0 - mid_l, 1.0), play_h), 1)
	zone.set_slot(1, Rect2(mid_x + gap / 2.0, side_top + play_h + gap, maxf(mid_r - mid_x - gap / 2.0, 1.0), play_h), -1)
	var south_play_y := maxf(side_top + 2.0 * (play_h + gap), play_y)
	# The player's play between the side hands (they reach down beside it).
	zone.set_slot(0, Rect2(mid_l, south_play_y, maxf(mid_r - mid_l, 1.0), play_h), 0)
	if review_panel != null:
		# Over the history and the right of the table, from the top bar to the controls.
		var w := clampf(s.x * 0.42, minf(360.0, s.x - 16.0), s.x - 16.0)
		review_panel.fit(Rect2(s.x - w - 8.0, top_h + 4.0, w, maxf(controls_y - top_h - 10.0, 120.0)))
	if controller != null and controller.has_record():
		_render()


## Opens the deal review (复盘) of the player's seat over the replay (ReviewPanel): L3 values
## each decision on a worker thread; a tapped decision seeks the replay to it.
func open_review() -> void:
	if review_panel != null or not controller.has_record():
		return
	review_panel = ReviewPanel.new()
	# Above the open hands (z 100+) and the plays (z 200+).
	review_panel.z_index = 1000
	review_panel.jump.connect(seek)
	review_panel.closed.connect(func() -> void:
		review_panel.queue_free()
		review_panel = null)
	_frame.add_child(review_panel)
	if review_worlds > 0:
		review_panel.review.worlds = review_worlds
	var seat := review_seat if review_seat in range(4) else ReplayReview.player_seat(controller.players())
	if record != "":
		# A saved record: its review is kept beside it and read back next time.
		review_panel.start_saved(record, seat)
	else:
		review_panel.start(controller.record_text(), seat)
	_layout()


func current_position() -> int:
	return controller.record_position() if controller != null else 0


func step_forward() -> void:
	if controller != null and controller.step_forward():
		_render()


func step_back() -> void:
	if controller != null and controller.step_back():
		_render()


func seek(n: int) -> void:
	if controller == null or not controller.has_record():
		return
	controller.seek(n)
	_render()


func toggle_play() -> void:
	playing = not playing
	_elapsed = 0.0


func show_position(n: int) -> void:
	seek(n)


func _process(delta: float) -> void:
	if not playing or controller == null or not controller.has_record():
		return
	_elapsed += delta * SPEEDS[maxi(_speed.selected, 0)]
	if _elapsed >= STEP_SECONDS:
		_elapsed = 0.0
		if controller.record_position() >= controller.record_length():
			playing = false
		else:
			step_forward()


## Redraws everything from the record's state at the playback position.
func _render() -> void:
	var st := controller.record_state()
	if st == null:
		return
	var pos := controller.record_position()
	_level = st.level
	for oh in open_hands:
		oh.level = _level
	var hands: Array[PackedInt32Array] = st.hands
	zone.reset()
	if hands.size() == 4:
		for seat in 4:
			open_hands[seat].set_cards(hands[seat])
	var finished := st.finished
	var turn := st.turn
	for seat in 4:
		badges[seat].count = -1
		badges[seat].place = finished.find(seat) + 1
		badges[seat].active = seat == turn
	var rounds := ReplayRounds.rounds(_deal_events(pos, st.history_length))
	var latest := ReplayRounds.latest(rounds)
	for seat: int in latest:
		var p: Play = latest[seat]
		if p == null:
			zone.show_pass(seat)
		else:
			zone.show_play(seat, p.cards, zone.global_position + zone.slot_centers[seat], [], _level, p)
	history.clear()
	history.level = _level
	for r in rounds:
		if r.entries.is_empty():
			continue
		history.new_round()
		for e: Array in r.entries:
			history.add(e[0], e[1])
	var team := st.team_levels
	_deal_label.text = "%s · %s" % [tr("DEAL_ENDED_FMT").format({n = st.deal_no + 1}),
		tr("LEVELS_FMT").format({us = Cards.rank_label(team[0]), them = Cards.rank_label(team[1])})]
	_position_label.text = tr("REPLAY_POSITION_FMT").format({pos = pos, total = controller.record_length()})
	_setting_slider = true
	slider.value = pos
	_setting_slider = false
	position_shown.emit(pos)


## The events of the last `turns` actions before `pos` (the plays and passes of the deal so far),
## in order. The playback is moved to compute missing ones and put back at `pos`.
func _deal_events(pos: int, turns: int) -> Array[MatchEvent]:
	var out: Array[MatchEvent] = []
	var moved := false
	for p in range(maxi(pos - turns, 0) + 1, pos + 1):
		if not _events.has(p):
			controller.seek(p)
			moved = true
			_events[p] = controller.record_events()
		out.append_array(_events[p])
	if moved:
		controller.seek(pos)
	return out


## The AI's view of the decision at this point (see ReplayController.ai_view).
func ai_view() -> ReplayAiView:
	return controller.ai_view() if controller != null and controller.has_record() else null


func show_ai_view() -> void:
	if controller == null or not controller.has_record() or modal.is_open():
		return
	playing = false
	var view := ai_view()
	var lines: Array = []
	if view == null:
		lines.append(tr("AI_VIEW_NONE"))
	else:
		for h: Hint in view.hints:
			var what := tr("HINT_PASS") if h.play == null else PlayText.describe(h.play)
			lines.append("%s  (%.2f)\n%s" % [what, h.score, PlayText.reason(h.reason, Array(h.reason_args))])
		for id in view.options:
			lines.append(PlayText.card_text(id))
	var title := tr("AI_VIEW_TITLE_FMT").format({seat = tr("SEAT_%d" % view.seat)}) if view != null else tr("BTN_AI_VIEW")
	modal.open(title, lines, [[&"close", "BACK"]])


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or modal.is_open():
		return
	match key.keycode:
		KEY_RIGHT:
			step_forward()
		KEY_LEFT:
			step_back()
		KEY_SPACE:
			toggle_play()
		_:
			return
	get_viewport().set_input_as_handled()
