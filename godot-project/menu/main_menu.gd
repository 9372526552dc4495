extends Control
## Main menu: Continue (an unfinished match left or closed), the guided first deal (for a
## player who has finished no deal), Training, Play (full match),
## Replays, Statistics, Rules, Settings, Credits, Quit; the rule preset and the AI difficulty of each other seat
## (saved in the settings), and the language (System / 中文 / English).
##
## The layout is main_menu.tscn (containers a designer can rearrange); this script only wires the
## buttons and lists to the settings and the EventBus.

const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
## The Language list's items, in order: "" follows the system.
const LANGUAGES: Array[String] = ["", "zh_CN", "en"]

@onready var _continue: Button = %Continue
@onready var _continue_info: Label = %ContinueInfo
@onready var _training: Button = %Training
@onready var _rules: OptionButton = %Rules
@onready var _levels: Array[OptionButton] = [%Level1, %Level2, %Level3]
@onready var _language: OptionButton = %Language


func _ready() -> void:
	var resume := RecordLibrary.continue_config()
	_continue.visible = resume != null
	_continue_info.visible = resume != null
	if resume != null:
		_continue.pressed.connect(EventBus.match_requested.emit.bind(resume))
		_continue.tooltip_text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING" if resume.mode == &"training" else "MODE_MATCH")})
		_continue_info.text = _continue.tooltip_text
	# A player with no finished deal is offered the guided first deal here (also on the Rules page).
	var guided: Button = %GuidedDeal
	guided.visible = offers_guided_deal(RecordLibrary.stats())
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
		_levels[i].selected = int(levels[i]) - 1
		_levels[i].item_selected.connect(_on_level_selected.bind(i))
	_language.selected = maxi(LANGUAGES.find(Settings.get_value(&"locale")), 0)
	_language.item_selected.connect(func(i: int) -> void: Settings.set_value(&"locale", LANGUAGES[i]))

	%Version.text = MatchController.engine_version()
	# Deferred: the menu may already be gone by then (a match requested at once).
	(func() -> void:
		if _training.is_inside_tree():
			_training.grab_focus()).call_deferred()


## Whether the menu offers the guided first deal: the local player has finished no deal yet
## (statistics as RecordLibrary.stats() gives them).
static func offers_guided_deal(stats: Dictionary) -> bool:
	var me: Dictionary = stats.get("stats", {}).get("players", {}).get(RecordLibrary.LOCAL_PLAYER, {})
	return int(me.get("record", {}).get("deals", 0)) == 0


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
