class_name Table
extends Control
## The table, shared by training and full matches (and by replays for the drawing): the player's
## hand at the bottom, partner opposite, opponents left and right (a card back and a count each),
## each seat's latest play in the centre, levels and wild at the top, whose turn with a countdown,
## PASS / HINT / PLAY / SORT, finishing places, banners for "table cleared" and "partner takes the
## lead", tribute and return steps, and end-of-deal / end-of-match panels.
##
## This script builds the table and keeps the player's duties. The parts live beside it:
## TableEvents (the engine's events, one after another, with their animations), TableLayout
## (where things go), PlayerMoves (what the buttons, keys and gestures do), TurnClock, ActionBar,
## TributePanel, PauseMenu, TrainingTools; the engine is reached only through the MatchController.
##
## Seats: 0 = the player (south), 1 = east (next to play), 2 = north (partner), 3 = west.

## One engine event starts to be shown (tests time the table's pace with it).
signal event_shown(event: MatchEvent)
## One engine event has been shown (tests wait on it; the guided deal explains from it).
signal event_handled(event: MatchEvent)
## The event queue ran empty; the table waits for the player or the AI.
signal became_idle
## The end-of-deal panel is up, for this deal_ended event.
signal deal_panel_shown(event: DealEndedEvent)
## The end-of-match panel is up, for this match_ended event (online: the rating line joins it).
signal match_panel_shown(event: MatchEndedEvent)
## The match's end screen's Review: the whole match (the lead's review overlay answers it).
signal review_requested()
## A deal's ceremony's Review (offline only): deal `deal_no` (0-based, as Table.deal_no).
signal review_requested_deal(deal_no: int)

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
## Keeps the counter in step with the events shown.
var counter_feed: CardCounterFeed
## Nodes placed by TableLayout.
@onready var frame: Control = %Frame
@onready var top_bar: HBoxContainer = %TopBar
@onready var action_bar: HBoxContainer = %ActionBar
@onready var my_countdown: ProgressBar = %MyCountdown
## The player's turn clock: the bar and the seconds left (red, with a tick, in the last seconds).
@onready var clock: TurnClock = %TurnClock
@onready var clock_label: Label = %Seconds
## The right-hand column: history, the hint's "why" panel, the AI debug overlay.
@onready var sidebar: VBoxContainer = %Sidebar
@onready var status: Label = %Status
@onready var toast_label: Label = %Toast
## A face-down card that flies for tributes the player may not see.
@onready var flying_back: CardView = %FlyingBack
## The area between the top bar, the action bar and the history (set by TableLayout).
var middle := Rect2()
## The felt's oval (global), as the layout last asked for it.
var oval := Rect2()
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
var table_play: Play = null
var table_play_seat := -1

## The level plaque at the top centre (both teams' levels, the level played, the wild).
@onready var plaque: LevelPlaque = %Plaque
## Word-art for plays and the bombs' effects, over the table.
@onready var moments: Moments = %Moments
## Hidden: the plaque shows the levels; these keep the plain-text line (tests, replays' wording).
@onready var _level_label: Label = %Levels
@onready var _deal_label: Label = %DealInfo
@onready var _mode_label: Label = %ModeLabel
## Set when the table leaves the tree: its own coroutines (a panel it waits on) stop.
var closing := false
## What the player's buttons, keys and gestures do.
var moves := PlayerMoves.new(self)
## What the player must do now, and the buttons and status line for it.
var duties := PlayerDuty.new(self)
## The toast / banner / readings / status row.
var prompt := PromptRow.new(self)


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
	# Fed each event as it is shown (the engine's own position runs ahead of the table).
	counter_feed = CardCounterFeed.new(counter_view, controller)
	event_shown.connect(counter_feed.show_event)
	# The deal-end card's and the end screen's Review open L3's review over the table.
	TableReview.wire(self)
	var code := controller.start(config)
	if code != 0:
		show_error(code)


func _exit_tree() -> void:
	closing = true
	show_oval(Rect2())
	prompt.stop()
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
	SeatKinds.show(badges, SeatKinds.from_config(config))

	zone.pacing = pacing
	moments.pacing = pacing
	moments.big.hushed = [status]
	clock.pacing = pacing
	counter_view.visible = config.uses_card_counter() and not config.all_ai
	history.visible = Settings.get_value(&"history_open")

	layer.prewarm()
	hand.layer = layer
	zone.layer = layer
	hand.group_view = Settings.get_value(&"group_view")
	hand.selection_changed.connect(_on_selection_changed)
	hand.play_requested.connect(_on_play_pressed)
	hand.grouping_requested.connect(moves.grouping_requested)

	pass_button.pressed.connect(_on_pass_pressed)
	hint_button.pressed.connect(_on_hint_pressed)
	play_button.pressed.connect(_on_play_pressed)
	sort_button.pressed.connect(moves.sort_pressed)

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
		# The deal's ceremony card stands on the felt above the action buttons (Modal.open_on_table).
		modal.place(DealCeremony.card_rect(self))


var _layout_queued := false


func _layout_later() -> void:
	if _layout_queued:
		return
	_layout_queued = true
	# A method, not a lambda: a deferred lambda holds the node's bare pointer, and a table freed
	# before the call left it pointing at whatever took the memory ("Trying to call a lambda with
	# an invalid instance" on a plain Control); a deferred method of a freed node is dropped.
	_layout_queued_now.call_deferred()


func _layout_queued_now() -> void:
	_layout_queued = false
	_layout()


## The felt under the table (the "felt" group) draws its oval here (global); Rect2() gives the
## other screens their plain cloth back.
func show_oval(rect: Rect2) -> void:
	oval = rect
	if is_inside_tree():
		get_tree().call_group(&"felt", &"show_table", rect)


## Whether the right-hand column is shown: the history is open, or the AI debug overlay, the heat
## map's legend or the guided deal need it (kept while the setting is on, so the table never
## jumps). The hint's "why" panel does not keep it: without the column it stands right of North
## (TrainingTools.float_why), and the table centres in the whole window.
func sidebar_wanted() -> bool:
	return bool(Settings.get_value(&"history_open")) or bool(Settings.get_value(&"ai_debug")) \
			or (mode == &"training" and bool(Settings.get_value(&"heat_map"))) or (config != null and config.guided)


## True when every event has been shown and no panel waits for the player.
func is_idle() -> bool:
	return not events.busy() and not modal.is_open()


## Locks the hand's input (also while a panel is open).
func lock_input(locked: bool) -> void:
	hand.locked = locked or modal.is_open()


# --- the player's duties and buttons -------------------------------------------------------------

# PlayerDuty does the work; the events and tests call these.
func begin_duty(what: StringName) -> void:
	duties.begin(what)


## The player's duty is done (played, passed, gave, or the deal ended).
func end_duty() -> void:
	duties.end()


## `seat` is to play (turn_started): whose badge is lit, and the player's clock when it is theirs.
func start_turn(seat: int, pass_ok: bool, time_limit: float) -> void:
	duties.start_turn(seat, pass_ok, time_limit)


## Auto-play went on or off for the player's seat (controller_changed): the seat blinks with
## "AI Auto-Play" and no duty is offered while the AI plays; taken back, the engine announces the
## seat's duty again.
func show_auto_play(on: bool) -> void:
	duties.show_auto_play(on)


## A fatal engine error stopped the match (its report is in user://crash/): offers to resume
## from the last valid state, or to leave.
func show_crash(report: String) -> void:
	end_duty()
	modal.open(tr("CRASH_TITLE"), [tr("CRASH_TEXT"), report.get_file()], [[&"resume", "CRASH_RESUME"], [&"menu", "BTN_LEAVE"]])
	var choice: StringName = await modal.closed
	if closing:
		return
	if choice == &"resume":
		var code := controller.resume.after_crash()
		if code != 0:
			show_error(code)
	else:
		EventBus.screen_requested.emit(&"menu")


## Shows the card counter of the events shown so far.
func update_counter() -> void:
	if counter_feed != null:
		counter_feed.redraw()


func refresh_controls() -> void:
	if pass_button == null:  # @onready: null only before _ready
		return
	duties.refresh()


func _process(_delta: float) -> void:
	prompt.update()
	if my_countdown.visible:
		clock.tick(controller.time_left() if controller.has_match() else -1.0)


## Shows `left_s` seconds on the turn clock (tests, screenshots).
func show_clock(left_s: float) -> void:
	clock.show_seconds(left_s)


## The turn clock's size: the bar, the gap and the seconds.
func clock_size() -> Vector2:
	return clock.needed_size()


## Whether the clock is in its warning seconds (tests).
func clock_warning() -> bool:
	return clock.warning()


# The buttons and keys: PlayerMoves does what they mean (tests press them through these).
func _on_play_pressed() -> void:
	moves.play_pressed()


## Plays the selected cards with a reading index (-1 = the default), after the optional
## confirmation. Returns the engine's code (or -1 when nothing was sent).
func play_selection(reading: int) -> int:
	return await moves.play_selection(reading)


func _on_pass_pressed() -> void:
	moves.pass_pressed()


func _on_hint_pressed() -> void:
	moves.hint_pressed()


## An error the player caused, in words, with the error sound.
func say_error(text: String) -> void:
	prompt.say_error(text)


func _on_selection_changed(_ids: PackedInt32Array) -> void:
	training.on_selection_changed()
	refresh_controls()


## Leaves for the menu, saving the match so far as a replay and remembering it for "Continue".
func leave() -> void:
	save_for_continue()
	EventBus.screen_requested.emit(&"menu")


## Saves the unfinished match (record + the Continue entry); the app closing does it too.
func save_for_continue() -> void:
	if not match_over and not config.all_ai:
		last_record = controller.record.save()
		controller.record.remember_for_continue(last_record)


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
			moves.sort_pressed()
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


# --- helpers ---------------------------------------------------------------------------------------

func seat_anchor(seat: int) -> Vector2:
	if seat == local_seat or (spectator and seat == 0):
		return hand.get_global_rect().get_center()
	return badges[seat].card_anchor()


## `seat`'s play has landed: its word-art beside it (and a bomb's effect). Returns the shake the
## table should give it (0: none).
func name_play(seat: int, play: Play) -> float:
	var at := zone.group_rect(seat)
	if at.size == Vector2.ZERO:
		at = Rect2(zone.get_global_transform() * zone.slot_rects[seat].position, zone.slot_rects[seat].size)
	var to_moments := moments.get_global_transform().affine_inverse()
	var keep_off: Array[Rect2] = []
	var avoid: Array[Rect2] = []
	for r in word_art_keep_off():
		keep_off.append(to_moments * r)
	for r in word_art_avoid(seat):
		avoid.append(to_moments * r)
	# A bomb's ring keeps off the seats and the plaque (the top bar's first: it spans the width).
	var ring_clear: Array[Rect2] = [to_moments * (plaque as Control).get_global_rect()]
	ring_clear.append_array(keep_off.slice(1))
	var shake := moments.on_play(play, to_moments * at, keep_off, avoid, to_moments * oval, ring_clear)
	if moments.freeze_s > 0.0:
		_lift_play(seat)
	return shake


## A big moment with no play to it (双下, the match won): the name across the table, the felt
## dimmed, the rim swept. Returns how long the table's flow should hold (0: not shown).
func big_moment(title: String) -> float:
	var to_moments := moments.get_global_transform().affine_inverse()
	var keep_off: Array[Rect2] = []
	for r in word_art_keep_off():
		keep_off.append(to_moments * r)
	return moments.big.start(title, Rect2(), to_moments * oval, keep_off, pacing)


## Fireworks over the felt (the player's side won the match), clear of the seats, the plaque and
## (while it shows) the big moment's name. Returns the bursts shown (0: none — low-performance
## mode, animations off).
func fireworks() -> int:
	var to_moments := moments.get_global_transform().affine_inverse()
	var keep_off: Array[Rect2] = []
	for r in word_art_keep_off():
		keep_off.append(to_moments * r)
	var title := moments.big.title_global_rect()
	var name_at := to_moments * title if title.has_area() else Rect2()
	return moments.fireworks.start(to_moments * oval, keep_off, pacing, name_at, PacingProfile.scaled(pacing.big_moment_s))


## The cards of `seat`'s play rise for its big moment and settle back (relative moves, so a
## relayout meanwhile keeps its own places).
func _lift_play(seat: int) -> void:
	var lift := TableStyle.current().big_moment_lift
	# Never up onto a seat above the play (North's, over its play).
	var at := zone.group_rect(seat)
	for b in badges:
		var r := b.seat_rect()
		if b.is_visible_in_tree() and r.end.y <= at.position.y + 1.0 and r.position.x < at.end.x and r.end.x > at.position.x:
			lift = clampf(at.position.y - r.end.y - 2.0, 0.0, lift)
	var dur := PacingProfile.scaled(pacing.big_moment_s)
	for id in zone.shown(seat):
		var v := layer.find_view(id)
		if v == null:
			continue
		var tw := v.create_tween()
		tw.tween_property(v, "position:y", -lift, dur * 0.2).as_relative().set_ease(Tween.EASE_OUT)
		tw.tween_interval(dur * 0.55)
		tw.tween_property(v, "position:y", lift, dur * 0.25).as_relative().set_ease(Tween.EASE_IN)


## What a play's word-art never covers (global rects): every seat with its portrait, fan and chip,
## and the top bar with the level plaque.
func word_art_keep_off() -> Array[Rect2]:
	var out: Array[Rect2] = [top_bar.get_global_rect()]
	for badge in badges:
		if badge.is_visible_in_tree():
			out.append(badge.seat_rect())
	return out


## What it covers only when nothing else is free: the card counter, the sidebar, the action bar,
## the hand and the plays on the table other than `seat`'s.
func word_art_avoid(seat: int) -> Array[Rect2]:
	var out: Array[Rect2] = []
	for c: Control in [counter_view, sidebar, action_bar, hand]:
		if c.is_visible_in_tree():
			out.append(c.get_global_rect())
	for other in 4:
		var r := zone.group_rect(other)
		if other != seat and r.size != Vector2.ZERO:
			out.append(r)
	return out


func update_counts() -> void:
	for seat in 4:
		badges[seat].count = -1 if seat == 0 and not spectator else counts[seat]


func update_top_bar() -> void:
	_level_label.text = Wording.levels("LEVELS_FMT", "LEVELS_SPECTATOR_FMT", team_levels, spectator)
	var wild := "♥" + Cards.rank_label(level)
	_deal_label.text = tr("PLAYING_FMT").format({level = Cards.rank_label(level), wild = wild})
	plaque.show_levels(team_levels, level, spectator)
	for b in badges:
		b.team_level = team_levels[b.seat % 2]


## Shows a message in the prompt row for pacing.toast_s seconds (a banner gives way to it).
func toast(text: String) -> void:
	prompt.toast(text)


## Centres the toast's plate on its text inside the prompt row.
func place_toast() -> void:
	prompt.place_toast()


## Hides the toast at once (a banner takes the prompt row).
func dismiss_toast() -> void:
	prompt.dismiss_toast()


## An engine error code, in words.
func show_error(code: int) -> void:
	prompt.show_error(code)


## Whether the tribute / return / resist lines are on screen (tests, screenshots).
func tribute_info_shown() -> bool:
	return tribute_panel.visible
