extends Control
## Main menu: Continue (an unfinished match left or closed), Training, Play (full match),
## Replays, Statistics, Settings, Quit; the rule preset and the AI
## difficulty of each other seat (saved in the settings), and a language switch.

const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
const LEVEL_KEYS: Array[String] = ["AI_EASY", "AI_NORMAL", "AI_HARD"]
## Seats 1..3 as the menu names them.
const SEAT_KEYS: Array[String] = ["SEAT_EAST_OPPONENT", "SEAT_NORTH_PARTNER", "SEAT_WEST_OPPONENT"]

var _rules: OptionButton
var _levels: Array[OptionButton] = []
var _training: Button


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var safe := SafeArea.new()
	add_child(safe)
	var center := CenterContainer.new()
	safe.add_child(center)
	var column := UiKit.vbox(18)
	center.add_child(column)

	var title := UiKit.label("MENU_TITLE", 80, Color(0.98, 0.85, 0.45))
	title.name = "Title"
	title.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	column.add_child(title)
	var subtitle := UiKit.label("MAIN_SUBTITLE", 20)
	subtitle.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	subtitle.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	subtitle.custom_minimum_size.x = 640
	column.add_child(subtitle)

	var row := UiKit.hbox(28)
	row.alignment = BoxContainer.ALIGNMENT_CENTER
	column.add_child(row)

	var buttons := UiKit.vbox(12)
	buttons.custom_minimum_size.x = 300
	row.add_child(buttons)
	var resume := MatchController.continue_config()
	if resume != null:
		var cont := UiKit.button("MENU_CONTINUE", EventBus.match_requested.emit.bind(resume))
		cont.name = "Continue"
		cont.add_theme_color_override(&"font_color", Color(0.98, 0.85, 0.45))
		cont.tooltip_text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING" if resume.mode == &"training" else "MODE_MATCH")})
		buttons.add_child(cont)
		var what := UiKit.label(cont.tooltip_text, 16, Color(1, 1, 1, 0.7))
		what.name = "ContinueInfo"
		what.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		what.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
		buttons.add_child(what)
	_training = UiKit.button("MENU_TRAINING", _start.bind(&"training"))
	_training.name = "Training"
	buttons.add_child(_training)
	var play := UiKit.button("MENU_PLAY", _start.bind(&"match"))
	play.name = "Play"
	buttons.add_child(play)
	var online := UiKit.button("MENU_ONLINE", EventBus.screen_requested.emit.bind(&"online"))
	online.name = "Online"
	buttons.add_child(online)
	var records_row := UiKit.hbox(12)
	buttons.add_child(records_row)
	var replays := UiKit.button("MENU_REPLAYS", EventBus.screen_requested.emit.bind(&"replays"))
	replays.name = "Replays"
	replays.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	records_row.add_child(replays)
	var stats := UiKit.button("MENU_STATS", EventBus.screen_requested.emit.bind(&"stats"))
	stats.name = "Stats"
	stats.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	records_row.add_child(stats)
	var settings := UiKit.button("MENU_SETTINGS", EventBus.screen_requested.emit.bind(&"settings"))
	settings.name = "Settings"
	buttons.add_child(settings)
	if not OS.has_feature("mobile") and not OS.has_feature("web"):
		var quit := UiKit.button("MENU_QUIT", EventBus.screen_requested.emit.bind(&"quit"))
		quit.name = "Quit"
		buttons.add_child(quit)

	var options := UiKit.panel()
	row.add_child(options)
	var grid := GridContainer.new()
	grid.columns = 2
	grid.add_theme_constant_override(&"h_separation", 16)
	grid.add_theme_constant_override(&"v_separation", 10)
	options.add_child(grid)
	grid.add_child(UiKit.label("MENU_RULES", 22))
	_rules = UiKit.options(["RULES_COMPETITION", "RULES_HUAIAN", "RULES_HOUSE", "RULES_NO_SHUFFLE"],
			RULES.find(Settings.get_value(&"rules_preset")))
	_rules.name = "Rules"
	_rules.item_selected.connect(func(i: int) -> void: Settings.set_value(&"rules_preset", RULES[i]))
	grid.add_child(_rules)
	var levels: Array = Settings.get_value(&"ai_levels")
	for i in 3:
		grid.add_child(UiKit.label(SEAT_KEYS[i], 22))
		var o := UiKit.options(LEVEL_KEYS, int(levels[i]) - 1)
		o.name = "Level%d" % (i + 1)
		o.item_selected.connect(_on_level_selected.bind(i))
		_levels.append(o)
		grid.add_child(o)
	grid.add_child(UiKit.label("MENU_LANGUAGE", 22))
	var lang := UiKit.options(["LANG_ZH", "LANG_EN"], Settings.LOCALES.find(Settings.effective_locale()))
	lang.name = "Language"
	# Language names are shown in their own language, whatever the UI language is.
	lang.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	lang.set_item_text(0, "中文")
	lang.set_item_text(1, "English")
	lang.item_selected.connect(func(i: int) -> void: Settings.set_value(&"locale", Settings.LOCALES[i]))
	grid.add_child(lang)

	var version := UiKit.label("", 16, Color(1, 1, 1, 0.55))
	version.name = "Version"
	version.set_anchors_and_offsets_preset(Control.PRESET_BOTTOM_RIGHT)
	version.position -= Vector2(16, 12)
	version.grow_horizontal = Control.GROW_DIRECTION_BEGIN
	version.grow_vertical = Control.GROW_DIRECTION_BEGIN
	add_child(version)
	version.text = MatchController.engine_version()
	_training.grab_focus.call_deferred()


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
