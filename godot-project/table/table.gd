extends Control
## The table, shared by training and full matches (and by replays for the drawing): the player's
## hand at the bottom, partner opposite, opponents left and right (a card back and a count each),
## each seat's latest play in the centre, levels and wild at the top, whose turn with a countdown,
## PASS / HINT / PLAY / SORT, finishing places, banners for "table cleared" and "partner takes the
## lead", tribute and return steps, and end-of-deal / end-of-match panels.
##
## This script builds the table and handles the player's input and duties. The parts live beside
## it: TableEvents (the engine's events, one after another, with their animations), TableLayout
## (where things go), TributePanel, PauseMenu, TrainingTools; the engine is reached only through
## the MatchController.
##
## Seats: 0 = the player (south), 1 = east (next to play), 2 = north (partner), 3 = west.

## One engine event starts to be shown (tests time the table's pace with it).
signal event_shown(event: Dictionary)
## One engine event has been shown (tests wait on it).
signal event_handled(event: Dictionary)
## The event queue ran empty; the table waits for the player or the AI.
signal became_idle
## The end-of-deal panel is up (args: the deal_ended event).
signal deal_panel_shown(event: Dictionary)
## The end-of-match panel is up.
signal match_panel_shown(event: Dictionary)

const TrainingTools := preload("res://table/training_tools.gd")

var config: MatchConfig
## Animation lengths, least reading time per play, clock warning (open() may pass another).
var pacing: PacingProfile = preload("res://resources/style/pacing_default.tres")
var mode: StringName = &"training"
var controller: MatchController
@onready var events: TableEvents = %Events
@onready var pause_menu: PauseMenu = %PauseMenu

@onready var layer: CardLayer = %Cards
@onready var hand: HandView = %Hand
@onready var zone: PlayZone = %PlayZone
@onready var history: HistoryPanel = %History
@onready var banner: Banner = %Banner
@onready var modal: Modal = %Modal
@onready var training: Node = %Training  # TrainingTools
## The coach of the guided first deal (null otherwise).
var guide: GuidedDeal
@onready var tribute_panel: TributePanel = %TributeInfo
@onready var badges: Array[SeatBadge] = [%Seat0, %Seat1, %Seat2, %Seat3]
@onready var pass_button: Button = %ActionBar.get_node(^"PassButton")
@onready var hint_button: Button = %ActionBar.get_node(^"HintButton")
@onready var play_button: Button = %ActionBar.get_node(^"PlayButton")
@onready var sort_button: Button = %ActionBar.get_node(^"SortButton")
@onready var readings_box: HBoxContainer = %Readings
@onready var history_button: Button = %HistoryButton
## Training only: removed in a full match.
@onready var heat_button: Button = %HeatButton
## Auto-play (托管) toggle: the AI plays the player's seat while it is down.
## Removed when every seat is an AI.
@onready var auto_button: Button = %AutoPlayButton
## The card counter (记牌器); hidden when the config turns it off.
@onready var counter_view: CardCounterView = %CardCounter
## Nodes placed by TableLayout.
@onready var frame: Control = %Frame
@onready var top_bar: HBoxContainer = %TopBar
@onready var action_bar: HBoxContainer = %ActionBar
@onready var my_countdown: ProgressBar = %MyCountdown
## The player's turn clock: the bar and the seconds left (red, with a tick, in the last seconds).
@onready var clock: HBoxContainer = %TurnClock
@onready var clock_label: Label = %Seconds
## The right-hand column: history, the hint's "why" panel, the AI debug overlay.
@onready var sidebar: VBoxContainer = %Sidebar
@onready var status: Label = %Status
@onready var toast_label: Label = %Toast
## A face-down card that flies for tributes the player may not see.
@onready var flying_back: CardView = %FlyingBack
## The area between the top bar, the action bar and the history (set by TableLayout).
var middle := Rect2()
## The row the status line, banners, toasts and readings share (set by TableLayout).
var prompt_rect := Rect2()

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
## The AI plays the player's seat (auto-play): no duties are offered to the player.
var auto_play := false
var last_record := ""
## The play to beat (the latest on the table this round) and its seat; {} after the table clears.
var table_play := {}
var table_play_seat := -1

## The level plaque at the top centre (both teams' levels, the level played, the wild).
@onready var plaque: LevelPlaque = %Plaque
## Word-art for plays and the bombs' effects, over the table.
@onready var moments: Moments = %Moments
## Hidden: the plaque shows the levels; these keep the plain-text line (tests, replays' wording).
@onready var _level_label: Label = %Levels
@onready var _deal_label: Label = %DealInfo
@onready var _mode_label: Label = %ModeLabel
var _turn_deadline_ms := 0
var _turn_limit_ms := 0
var _toast_tween: Tween
## Whole seconds left when the clock last ticked (the warning sound plays once per second).
var _clock_last_s := -1
## Set when the table leaves the tree: its own coroutines (a panel it waits on) stop.
var _closing := false


## Called by the app before the table enters the tree (see ui/app.gd): {config: MatchConfig,
## pacing: PacingProfile (optional)}.
func open(params: Dictionary) -> void:
	var c: Variant = params.get("config")
	config = (c as MatchConfig).duplicate(true) if c is MatchConfig else null
	if config != null:
		mode = config.mode
	var p: Variant = params.get("pacing")
	if p is PacingProfile:
		pacing = p


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	if config == null:
		config = MatchConfig.with({mode = mode, rules = Settings.get_value(&"rules_preset"),
			ai_levels = Settings.get_value(&"ai_levels")})
	config.ai_debug = bool(Settings.get_value(&"ai_debug"))
	if config.ai_min_think_ms < 0:
		config.ai_min_think_ms = pacing.ai_think_ms
	_build()
	resized.connect(_layout)
	Settings.changed.connect(_on_setting_changed)
	_layout()
	controller = MatchController.new()
	controller.name = "MatchController"
	add_child(controller)
	controller.event_received.connect(events.enqueue)
	var code := controller.start(config)
	if code != 0:
		show_error(code)


func _exit_tree() -> void:
	_closing = true
	if _toast_tween != null:
		_toast_tween.kill()
	if modal.is_open():
		modal.press(&"")


# --- building ------------------------------------------------------------------------------------

## Wires the nodes of table.tscn (the layout is the scene's; TableLayout sizes the bands).
func _build() -> void:
	frame.resized.connect(_layout)
	events.table = self
	pause_menu.table = self
	%MenuButton.pressed.connect(pause_menu.open)
	_mode_label.text = "MODE_TRAINING" if mode == &"training" else "MODE_MATCH"
	if mode == &"training":
		heat_button.button_pressed = Settings.get_value(&"heat_map")
		heat_button.pressed.connect(func() -> void: Settings.set_value(&"heat_map", heat_button.button_pressed))
	else:
		heat_button.free()
		heat_button = null
	if not config.all_ai:
		auto_button.pressed.connect(func() -> void:
			var code := controller.set_auto_play(auto_button.button_pressed)
			if code != 0:
				auto_button.set_pressed_no_signal(auto_play)
				show_error(code))
	else:
		auto_button.free()
		auto_button = null
	history_button.button_pressed = Settings.get_value(&"history_open")
	history_button.pressed.connect(_toggle_history)

	for badge in badges:
		# A badge that grows (a place, auto-play) moves its row: lay out again.
		badge.minimum_size_changed.connect(_layout_later)
	for seat in range(1, 4):
		badges[seat].ai_level = config.ai_levels[seat - 1]

	zone.pacing = pacing
	moments.pacing = pacing
	_style_actions()
	TableStyle.current().changed.connect(_style_actions)
	counter_view.visible = config.uses_card_counter() and not config.all_ai
	# Deferred: the engine may still be emitting the signals of the same action (with nothing to
	# animate, a queue can run dry between two of them), and its state is already past them.
	became_idle.connect(update_counter, CONNECT_DEFERRED)
	history.visible = Settings.get_value(&"history_open")

	layer.prewarm()
	hand.layer = layer
	zone.layer = layer
	hand.group_view = Settings.get_value(&"group_view")
	hand.selection_changed.connect(_on_selection_changed)
	hand.play_requested.connect(_on_play_pressed)
	hand.grouping_requested.connect(_on_grouping_requested)

	pass_button.pressed.connect(_on_pass_pressed)
	hint_button.pressed.connect(_on_hint_pressed)
	play_button.pressed.connect(_on_play_pressed)
	sort_button.pressed.connect(_on_sort_pressed)

	my_countdown.visibility_changed.connect(func() -> void: clock.visible = my_countdown.visible)

	training.table = self
	training.setup()

	if config.guided:
		guide = GuidedDeal.new()
		guide.table = self
		add_child(guide)
		move_child(guide, modal.get_index())  # under the modal, as before
	banner.announced.connect(dismiss_toast)
	refresh_controls()
	update_top_bar()


# --- layout --------------------------------------------------------------------------------------

func _layout() -> void:
	if frame != null:  # @onready: null only before _ready (a resize while entering the tree)
		TableLayout.apply(self)


var _layout_queued := false


func _layout_later() -> void:
	if _layout_queued:
		return
	_layout_queued = true
	(func() -> void:
		_layout_queued = false
		_layout()).call_deferred()


## Whether the right-hand column is shown: the history is open, or the AI debug overlay or the
## training "why" panel may need it (kept while the setting is on, so the table never jumps).
func sidebar_wanted() -> bool:
	return bool(Settings.get_value(&"history_open")) or bool(Settings.get_value(&"ai_debug")) \
			or (training != null and training.hints_on() and bool(Settings.get_value(&"why_panel"))) \
			or (mode == &"training" and bool(Settings.get_value(&"heat_map"))) or (config != null and config.guided)


## True when every event has been shown and no panel waits for the player.
func is_idle() -> bool:
	return not events.busy() and not modal.is_open()


## Locks the hand's input (also while a panel is open).
func lock_input(locked: bool) -> void:
	hand.locked = locked or modal.is_open()


# --- the player's duties and buttons -------------------------------------------------------------

func begin_duty(what: StringName) -> void:
	if auto_play:
		return
	duty = what
	controller.prompt_seen()
	hand.clear_selection()
	training.on_duty(what)
	match what:
		&"tribute":
			hand.set_hinted(controller.tribute_options())
		&"return":
			hand.set_hinted(controller.return_options())
	if what != &"play":
		# A tribute or return has its turn time too (the engine's clock, which waited while the
		# table drew the deal): the same clock as a turn.
		var left := controller.time_left()
		_turn_limit_ms = int(left * 1000.0) if left > 0.0 else 0
		_turn_deadline_ms = Time.get_ticks_msec() + _turn_limit_ms
		my_countdown.visible = _turn_limit_ms > 0
		if my_countdown.visible and not events.instant:
			Sfx.play(&"your_turn")
	refresh_controls()


## The player's duty is done (played, passed, gave, or the deal ended).
func end_duty() -> void:
	duty = &""
	my_countdown.visible = false


## `seat` is to play (turn_started): whose badge is lit, and the player's clock when it is theirs.
func start_turn(seat: int, pass_ok: bool, time_limit: float) -> void:
	turn_seat = seat
	can_pass = pass_ok
	# The seat acts again: its "Pass" from the last time round is stale.
	zone.clear_pass(seat)
	for s in 4:
		badges[s].active = s == seat
		badges[s].set_countdown(time_limit if s == seat and s != local_seat else 0.0)
	if seat == local_seat and not spectator and not auto_play:
		begin_duty(&"play")
		_turn_limit_ms = int(time_limit * 1000.0)
		_turn_deadline_ms = Time.get_ticks_msec() + _turn_limit_ms
		my_countdown.visible = _turn_limit_ms > 0
		Sfx.play(&"your_turn")
	else:
		my_countdown.visible = false
		if duty == &"play":
			duty = &""
	refresh_controls()


## Auto-play went on or off for the player's seat (controller_changed): the seat blinks with
## "AI Auto-Play" and no duty is offered while the AI plays; taken back, the engine announces the
## seat's duty again.
func show_auto_play(on: bool) -> void:
	auto_play = on
	badges[local_seat].auto_play = on
	if auto_button != null:
		auto_button.set_pressed_no_signal(on)
	if on:
		end_duty()
		hand.clear_selection()
		hand.set_hinted(PackedInt32Array())
		toast(tr("AUTO_PLAY_ON"))
	else:
		toast(tr("AUTO_PLAY_OFF"))
	refresh_controls()


## A fatal engine error stopped the match (its report is in user://crash/): offers to resume
## from the last valid state, or to leave.
func show_crash(report: String) -> void:
	end_duty()
	modal.open(tr("CRASH_TITLE"), [tr("CRASH_TEXT"), report.get_file()], [[&"resume", "CRASH_RESUME"], [&"menu", "BTN_LEAVE"]])
	var choice: StringName = await modal.closed
	if _closing:
		return
	if choice == &"resume":
		var code := controller.resume_after_crash()
		if code != 0:
			show_error(code)
	else:
		EventBus.screen_requested.emit(&"menu")


## Shows the card counter of the state on screen (called when the table is idle, so the counts
## never run ahead of what has been drawn: not while events wait or a panel — the end of a deal,
## when the engine is already in the next one — is up).
func update_counter() -> void:
	if counter_view.visible and controller.has_match() and is_idle():
		counter_view.show_counts(controller.card_counter())


func refresh_controls() -> void:
	if pass_button == null:  # @onready: null only before _ready
		return
	var idle := not events.busy() and not modal.is_open()
	var acting := idle and not spectator and duty != &"" and not match_over
	# One obvious action: Pass, Hint and Play are there only when the player has something to do
	# (a play, a tribute, a return); Sort, a hand tool, stays.
	var my_move := actions_wanted()
	pass_button.visible = my_move and duty == &"play"
	play_button.visible = my_move
	hint_button.visible = my_move and duty == &"play" and mode == &"training" and Settings.get_value(&"hints")
	sort_button.visible = hand.card_count() > 0
	pass_button.disabled = not (acting and duty == &"play" and can_pass)
	hint_button.disabled = not (acting and duty == &"play")
	var selected := hand.selected_ids()
	play_button.disabled = not acting or selected.is_empty() or (duty != &"play" and selected.size() != 1)
	play_button.text = {&"tribute": "BTN_GIVE_TRIBUTE", &"return": "BTN_RETURN"}.get(duty, "BTN_PLAY")
	hand.waiting = not spectator and duty == &"" and not match_over
	if modal.is_open():
		# The panel speaks for the table; a status line behind it would be stale.
		status.text = ""
	elif duty == &"" and not spectator and turn_seat >= 0 and turn_seat != local_seat and not match_over:
		status.text = tr("WAITING_FOR_FMT").format({seat = tr("SEAT_%d" % turn_seat)})
	elif duty == &"play" and idle:
		status.text = tr("YOUR_TURN") if can_pass else tr("YOUR_LEAD")
	elif duty == &"tribute":
		status.text = tr("TRIBUTE_PROMPT")
	elif duty == &"return":
		status.text = tr("RETURN_PROMPT")
	else:
		status.text = ""
	training.refresh()


func _process(_delta: float) -> void:
	_update_prompt()
	if my_countdown.visible and _turn_limit_ms > 0:
		# The engine's clock is the truth (it stops while the table animates); local time is the
		# fallback when it has none.
		var left_s: float = controller.time_left() if controller.has_match() else -1.0
		var left := left_s * 1000.0 if left_s >= 0.0 else float(_turn_deadline_ms - Time.get_ticks_msec())
		show_clock(left / 1000.0)


## Shows `left_s` seconds on the turn clock; in the last `pacing.clock_warning_s` seconds the
## clock turns red and ticks once a second.
func show_clock(left_s: float) -> void:
	my_countdown.value = clampf(left_s * 1000.0 / maxf(_turn_limit_ms, 1.0), 0.0, 1.0)
	var whole := maxi(ceili(left_s), 0)
	clock_label.text = tr("CLOCK_SECONDS_FMT").format({s = whole})
	var warn := left_s <= pacing.clock_warning_s
	var colour := SeatBadge.WARN_COLOR if warn else Color(1, 1, 0.85)
	clock_label.add_theme_color_override(&"font_color", colour)
	my_countdown.modulate = colour if warn else Color.WHITE
	if warn and whole != _clock_last_s and whole > 0:
		Sfx.play(&"tick")
	_clock_last_s = whole


## The turn clock's size: the bar, the gap and the seconds.
func clock_size() -> Vector2:
	return Vector2(my_countdown.custom_minimum_size.x + 8.0 + clock_label.custom_minimum_size.x, 40.0)


## Whether the clock is in its warning seconds (tests).
func clock_warning() -> bool:
	return my_countdown.modulate != Color.WHITE


## The prompt row shows one thing at a time: a toast, else a banner, else the readings of an
## ambiguous selection, else the status line.
func _update_prompt() -> void:
	var toasting := toast_label.modulate.a > 0.0
	var announcing := banner.is_showing()
	readings_box.visible = not toasting and not announcing
	status.visible = readings_box.visible and readings_box.get_child_count() == 0


func _on_play_pressed() -> void:
	if not is_idle() or spectator or match_over:
		return
	var selected := hand.selected_ids()
	match duty:
		&"":
			if not selected.is_empty() and turn_seat >= 0 and turn_seat != local_seat:
				say_error(tr("NOT_YOUR_TURN_FMT").format({seat = Wording.seat_in_text(turn_seat, local_seat, spectator)}))
		&"tribute", &"return":
			if selected.size() != 1:
				toast(tr("SELECT_ONE_CARD"))
				return
			var options := controller.tribute_options() if duty == &"tribute" else controller.return_options()
			if not options.is_empty() and not (selected[0] in options):
				say_error(exchange_error(duty == &"tribute", options))
				return
			var code := controller.give_tribute(selected[0]) if duty == &"tribute" else controller.return_card(selected[0])
			if code == 0:
				end_duty()
				hand.set_hinted(PackedInt32Array())
			else:
				show_error(code)
			refresh_controls()
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
		say_error(illegal_play_text(info))
		return -1
	if Settings.get_value(&"confirm_play"):
		var text := _selection_text(info, reading)
		modal.open(tr("CONFIRM_PLAY_TITLE"), [text], [[&"yes", "BTN_PLAY"], [&"no", "BTN_CANCEL"]])
		lock_input(true)
		var answer: StringName = await modal.closed
		if _closing:
			return -1
		lock_input(false)
		if answer != &"yes" or duty != &"play":
			return -1
	var code := controller.play(selected, reading)
	if code == 9 or code == 1:
		say_error(illegal_play_text(controller.selection(selected)))
	elif code != 0:
		show_error(code)
	return code


## Why these cards cannot be played, from the advisor's reading of them: not a combination at
## all, or a combination that does not beat what is on the table (named, with who played it).
func illegal_play_text(info: Dictionary) -> String:
	var readings: Array = info.get("readings", [])
	if readings.is_empty():
		return tr("ERR_1")
	if table_play.is_empty():
		return tr("ERR_9")
	return tr("DOES_NOT_BEAT_FMT").format({play = PlayText.describe(readings[0]), table = PlayText.describe(table_play),
		seat = Wording.seat_in_text(table_play_seat, local_seat, spectator)})


## A wrong card for the tribute (it must be the highest, not a wild) or the return: which
## cards are allowed.
func exchange_error(is_tribute: bool, options: PackedInt32Array) -> String:
	var names := PackedStringArray()
	for id in options:
		var t := PlayText.card_text(id)
		if not (t in names):
			names.append(t)
	var key := "TRIBUTE_WRONG_CARD_FMT" if is_tribute else "RETURN_WRONG_CARD_FMT"
	return tr(key).format({cards = tr("LIST_SEP").join(names)})


## An error the player caused, in words, with the error sound.
func say_error(text: String) -> void:
	toast(text)
	Sfx.play(&"error")


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
		show_error(code)


func _on_hint_pressed() -> void:
	if not is_idle() or duty != &"play":
		return
	training.next_hint()


func _on_sort_pressed() -> void:
	hand.group_view = not hand.group_view
	Settings.set_value(&"group_view", hand.group_view)


func _on_selection_changed(_ids: PackedInt32Array) -> void:
	training.on_selection_changed()
	refresh_controls()


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
	lock_input(true)
	var choice: StringName = await modal.closed
	if _closing:
		return
	lock_input(events.busy())
	match choice:
		&"group":
			hand.group_selection()
		&"ungroup":
			hand.ungroup()
		&"view":
			_on_sort_pressed()


## Leaves for the menu, saving the match so far as a replay and remembering it for "Continue".
func leave() -> void:
	save_for_continue()
	EventBus.screen_requested.emit(&"menu")


## Saves the unfinished match (record + the Continue entry); the app closing does it too.
func save_for_continue() -> void:
	if not match_over and not config.all_ai:
		last_record = controller.save_record()
		controller.remember_for_continue(last_record)


func _notification(what: int) -> void:
	if what == NOTIFICATION_WM_CLOSE_REQUEST or what == NOTIFICATION_APPLICATION_PAUSED:
		save_for_continue()


func _toggle_history() -> void:
	history.visible = history_button.button_pressed
	Settings.set_value(&"history_open", history.visible)
	_layout()


## A tap on the felt (nothing else took it) or a right-click clears the selection.
func _gui_input(event: InputEvent) -> void:
	var mb := event as InputEventMouseButton
	if mb != null and mb.pressed and (mb.button_index == MOUSE_BUTTON_LEFT or mb.button_index == MOUSE_BUTTON_RIGHT):
		if not modal.is_open():
			hand.clear_selection()
			accept_event()


## Opens the rules page over the table (from the pause menu); the match stays paused meanwhile.
func show_rules() -> void:
	var page: Control = load("res://help/rules_page.tscn").instantiate()
	page.overlay = true
	add_child(page)
	await page.tree_exited


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
			pause_menu.open()
		_:
			return
	get_viewport().set_input_as_handled()


func _on_setting_changed(key: StringName, _value: Variant) -> void:
	match key:
		&"card_size":
			_layout()
		&"hints", &"heat_map", &"ai_debug", &"why_panel", &"history_open":
			refresh_controls()
			_layout()  # the sidebar may come or go


## Whether the action buttons are shown: the player has a duty (their turn, a tribute, a return).
func actions_wanted() -> bool:
	return not spectator and duty != &"" and not match_over


## Gold Play (widest), jade Hint, slate Pass: colours and width from TableStyle ("Action bar").
func _style_actions() -> void:
	var st := TableStyle.current()
	var base_w := sort_button.custom_minimum_size.x
	play_button.custom_minimum_size.x = base_w * st.play_button_width
	for pair: Array in [[play_button, st.play_button_color, st.play_button_text_color],
			[hint_button, st.hint_button_color, st.action_text_color],
			[pass_button, st.pass_button_color, st.action_text_color]]:
		var b: Button = pair[0]
		var colour: Color = pair[1]
		var text: Color = pair[2]
		b.add_theme_stylebox_override(&"normal", _action_box(colour))
		b.add_theme_stylebox_override(&"hover", _action_box(colour.lightened(0.12)))
		b.add_theme_stylebox_override(&"pressed", _action_box(colour.darkened(0.15)))
		b.add_theme_stylebox_override(&"disabled", _action_box(colour.darkened(st.action_disabled_darken)))
		for item: StringName in [&"font_color", &"font_hover_color", &"font_pressed_color", &"font_focus_color"]:
			b.add_theme_color_override(item, text)
		b.add_theme_color_override(&"font_disabled_color", Color(text, 0.6))


static func _action_box(colour: Color) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = colour
	box.set_corner_radius_all(12)
	box.content_margin_left = 16
	box.content_margin_right = 16
	# A lighter top edge: a slight gradient look without a texture.
	box.border_width_top = 2
	box.border_color = colour.lightened(0.3)
	box.shadow_color = Color(0, 0, 0, 0.3)
	box.shadow_size = 4
	box.shadow_offset = Vector2(0, 2)
	return box


# --- helpers ---------------------------------------------------------------------------------------

func seat_anchor(seat: int) -> Vector2:
	if seat == local_seat or (spectator and seat == 0):
		return hand.get_global_rect().get_center()
	return badges[seat].card_anchor()


func update_counts() -> void:
	for seat in 4:
		badges[seat].count = -1 if seat == 0 and not spectator else counts[seat]


func update_top_bar() -> void:
	_level_label.text = Wording.levels("LEVELS_FMT", "LEVELS_SPECTATOR_FMT", team_levels, spectator)
	var wild := "♥" + Cards.rank_label(level)
	_deal_label.text = tr("PLAYING_FMT").format({level = Cards.rank_label(level), wild = wild})
	plaque.show_levels(team_levels, level, spectator)


## Shows a message in the prompt row for pacing.toast_s seconds (a banner gives way to it).
func toast(text: String) -> void:
	toast_label.text = text
	if _toast_tween != null:
		_toast_tween.kill()
	banner.dismiss()
	place_toast()
	toast_label.modulate.a = 1.0
	_toast_tween = create_tween()
	_toast_tween.tween_interval(pacing.toast_s)
	_toast_tween.tween_property(toast_label, "modulate:a", 0.0, 0.4)
	_update_prompt()


## Centres the toast's plate on its text inside the prompt row.
func place_toast() -> void:
	var font := toast_label.get_theme_font(&"font")
	var fs := toast_label.get_theme_font_size(&"font_size")
	var w := minf(font.get_string_size(toast_label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x + 40.0, prompt_rect.size.x)
	toast_label.size = Vector2(w, prompt_rect.size.y)
	toast_label.position = Vector2(prompt_rect.get_center().x - w / 2.0, prompt_rect.position.y)


## Hides the toast at once (a banner takes the prompt row).
func dismiss_toast() -> void:
	if _toast_tween != null:
		_toast_tween.kill()
	toast_label.modulate.a = 0.0


func show_error(code: int) -> void:
	var key := "ERR_%d" % code
	var text := tr(key)
	if code == 9 and not table_play.is_empty():
		text = tr("DOES_NOT_BEAT_TABLE_FMT").format({table = PlayText.describe(table_play),
			seat = Wording.seat_in_text(table_play_seat, local_seat, spectator)})
	say_error(text if text != key else tr("ERR_GENERIC").format({code = code}))


## Whether the tribute / return / resist lines are on screen (tests, screenshots).
func tribute_info_shown() -> bool:
	return tribute_panel.visible
