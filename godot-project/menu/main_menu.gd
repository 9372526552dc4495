extends Control
## Main menu: Return to your online match (a seat held in a room: the table left for the menu,
## or the game closed mid-match), Continue (an unfinished offline match left or closed), the
## guided first deal (for a player who has finished no deal), Training, Play (full match),
## Replays, Statistics, Rules, Settings, Credits, Quit; the rule preset and the AI difficulty of each other seat
## (saved in the settings), and the language (System / 中文 / English).
##
## The layout is main_menu.tscn (containers a designer can rearrange): the title and the options
## beside the buttons, whose two groups (%Main, %More) stand one over the other when the height
## allows and side by side when it does not (a phone's 1560×720 view with its 80 lp tap targets).
## Upright (a phone held in portrait) the title and options stand over the buttons in one column,
## and the buttons grow (UPRIGHT_BUTTON_HEIGHT, UPRIGHT_FONT) to use the tall screen.
## This script wires the buttons and lists to the settings and the EventBus, and writes the texts
## it formats again when the language changes.

const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
## The Language list's items, in order: "" follows the system.
const LANGUAGES: Array[String] = ["", "zh_CN", "en"]
## Upright views: the menu buttons' least height (lp) and font size.
const UPRIGHT_BUTTON_HEIGHT := 112.0
const UPRIGHT_FONT := 34

@onready var _continue: Button = %Continue
@onready var _continue_info: Label = %ContinueInfo
@onready var _training: Button = %Training
@onready var _rules: OptionButton = %Rules
@onready var _levels: Array[OptionButton] = [%Level1, %Level2, %Level3]
@onready var _language: OptionButton = %Language
@onready var _return_online: Button = %ReturnOnline
@onready var _buttons: BoxContainer = %Buttons

## The unfinished offline match under Continue (null: none).
var _resume: MatchConfig
## The online room whose seat the player holds ({} = none), see online_return().
var _online := {}
var _fit_queued := false
## Upright layout applied; the buttons' own sizes before it (Button -> [min size, font size or -1]).
var _upright := false
var _upright_base := {}


func _ready() -> void:
	_online = online_return()
	_return_online.visible = not _online.is_empty()
	_return_online.pressed.connect(_return_to_online)
	_resume = RecordLibrary.continue_config()
	_continue.visible = _resume != null
	_continue_info.visible = _resume != null
	if _resume != null:
		_continue.pressed.connect(EventBus.match_requested.emit.bind(_resume))
	# A player with no finished deal is offered the guided first deal here (also on the Rules page).
	var guided: Button = %GuidedDeal
	var me := RecordLibrary.local_figures(RecordLibrary.stats())
	guided.visible = offers_guided_deal(me.record if me != null else null)
	guided.pressed.connect(func() -> void: EventBus.match_requested.emit(GuidedDeal.config()))
	_training.pressed.connect(_start.bind(&"training"))
	%Play.pressed.connect(_start.bind(&"match"))
	%Online.pressed.connect(EventBus.screen_requested.emit.bind(&"online"))
	%Replays.pressed.connect(EventBus.screen_requested.emit.bind(&"replays"))
	%Stats.pressed.connect(EventBus.screen_requested.emit.bind(&"stats"))
	%RulesPage.pressed.connect(EventBus.screen_requested.emit.bind(&"rules"))
	%Settings.pressed.connect(EventBus.screen_requested.emit.bind(&"settings"))
	%Credits.pressed.connect(EventBus.screen_requested.emit.bind(&"credits"))
	%Quit.visible = not OS.has_feature("mobile") and not OS.has_feature("web")
	%Quit.pressed.connect(EventBus.screen_requested.emit.bind(&"quit"))

	_rules.selected = maxi(RULES.find(Settings.get_value(&"rules_preset")), 0)
	_rules.item_selected.connect(func(i: int) -> void: Settings.set_value(&"rules_preset", RULES[i]))
	var levels: Array = Settings.get_value(&"ai_levels")
	for i in 3:
		# Expert (level 4: L3's search on two threads, a larger budget) is a desktop level.
		if not offers_expert():
			_levels[i].remove_item(3)
		_levels[i].selected = mini(int(levels[i]), _levels[i].item_count) - 1
		_levels[i].item_selected.connect(_on_level_selected.bind(i))
	_language.selected = maxi(LANGUAGES.find(Settings.get_value(&"locale")), 0)
	_language.item_selected.connect(func(i: int) -> void: Settings.set_value(&"locale", LANGUAGES[i]))

	_retranslate()
	%Scroll.resized.connect(_queue_fit)
	for c: Control in [%Main, %More, %Options]:
		c.minimum_size_changed.connect(_queue_fit)
	_queue_fit()
	# Deferred: the menu may already be gone by then (a match requested at once). A seat held
	# online comes first.
	var first := _return_online if _return_online.visible else _training
	_focus_first.call_deferred(first)


## Deferred as a method (a deferred lambda of a freed menu pointed at freed memory).
func _focus_first(first: Control) -> void:
	if is_instance_valid(first) and first.is_inside_tree():
		first.grab_focus()


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED and is_node_ready():
		_retranslate()


## The texts this script formats (the scene's own keys translate themselves).
func _retranslate() -> void:
	if _resume != null:
		_continue.tooltip_text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING" if _resume.mode == &"training" else "MODE_MATCH")})
		_continue_info.text = _continue.tooltip_text
	if not _online.is_empty():
		_return_online.tooltip_text = tr("MENU_RETURN_ONLINE_HINT_FMT").format({code = _online.room})
	%Version.text = MatchController.engine_version()


func _queue_fit() -> void:
	if not _fit_queued:
		_fit_queued = true
		_fit.call_deferred()


## The two button groups one over the other when that fits the height, else side by side; the
## subtitle only when the title and the options leave room for it.
func _fit() -> void:
	_fit_queued = false
	var view := (%Scroll as Control).size
	_set_upright(view.y > view.x * 1.15)
	var height := view.y
	var main: Control = %Main
	var more: Control = %More
	var side: Control = %Side
	if _upright:
		height -= side.get_combined_minimum_size().y + (%Row as BoxContainer).get_theme_constant(&"separation")
	var tall := main.get_combined_minimum_size().y + _buttons.get_theme_constant(&"separation") + more.get_combined_minimum_size().y
	_buttons.vertical = tall <= height
	var subtitle: Control = %Subtitle
	subtitle.visible = true
	subtitle.visible = side.get_combined_minimum_size().y <= height


## One column with bigger buttons for an upright view, or back to the scene's own layout.
func _set_upright(on: bool) -> void:
	if on == _upright:
		return
	_upright = on
	(%Row as BoxContainer).vertical = on
	for n in _buttons.find_children("*", "Button", true, false):
		var b := n as Button
		if on:
			var font := b.get_theme_font_size(&"font_size") if b.has_theme_font_size_override(&"font_size") else -1
			_upright_base[b] = [b.custom_minimum_size, font]
			b.custom_minimum_size.y = maxf(b.custom_minimum_size.y, UPRIGHT_BUTTON_HEIGHT)
			b.add_theme_font_size_override(&"font_size", maxi(font, UPRIGHT_FONT))
		elif _upright_base.has(b):
			var base: Array = _upright_base[b]
			b.custom_minimum_size = base[0]
			if int(base[1]) >= 0:
				b.add_theme_font_size_override(&"font_size", int(base[1]))
			else:
				b.remove_theme_font_size_override(&"font_size")
	if not on:
		_upright_base.clear()


## The online room whose seat the player holds: {room, live}. Live: this session is still in the
## room (the player left the table for the menu); else the room remembered for the server and
## nickname in the settings (the game was closed mid-match). {} when there is none.
static func online_return() -> Dictionary:
	var c := Online.client
	if c != null and c.is_online() and Online.seat >= 0 and c.get_room_code() != "" and Online.room_in_game():
		return {room = String(c.get_room_code()), live = true}
	var room := Online.remembered_room(OnlineMenu.server_address(), String(Settings.get_value(&"online_nickname")))
	return {room = room, live = false} if room != "" else {}


## Back to the held seat: the table at once while still in the room, else the Online menu joins
## the remembered room (connecting first; it says what went wrong, e.g. the room is gone).
func _return_to_online() -> void:
	if _online.get("live", false):
		EventBus.match_requested.emit(Online.table_config())
		return
	OnlineMenu.join_on_open = true
	EventBus.screen_requested.emit(&"online")


## Whether the menu offers the guided first deal: the local player has finished no deal yet
## (`me`: their record, as RecordLibrary.local_figures gives it; null when they have none).
static func offers_guided_deal(me: StatsRecord) -> bool:
	return me == null or me.deals == 0


## Whether the seats may be given the expert level (4): not on phones or the web, where one
## core must answer within L3's time.
static func offers_expert() -> bool:
	return not OS.has_feature("mobile") and not OS.has_feature("web")


## The config the Training or Play button sends (also used by tests).
func match_config(mode: StringName) -> MatchConfig:
	var levels: Array[int] = []
	for o in _levels:
		levels.append(o.selected + 1)
	return MatchConfig.with({mode = mode, rules = RULES[maxi(_rules.selected, 0)], ai_levels = levels,
		card_counter = 1 if mode == &"training" or Settings.get_value(&"card_counter") else 0,
		auto_play_after_timeouts = 2 if Settings.get_value(&"auto_play_on_timeouts") else 0})


func _start(mode: StringName) -> void:
	EventBus.match_requested.emit(match_config(mode))


func _on_level_selected(index: int, seat_index: int) -> void:
	var levels: Array = Settings.get_value(&"ai_levels").duplicate()
	levels[seat_index] = index + 1
	Settings.set_value(&"ai_levels", levels)
