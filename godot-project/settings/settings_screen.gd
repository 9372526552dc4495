extends Control
## Settings screen: every player setting (autoload Settings, saved to user://settings.cfg as soon
## as it changes). Rows are built from ROWS so adding a setting is one line.

## [key, label key, kind, choices]: kind toggle | choice (values + label keys) | slider (min, max, step)
const ROWS := [
	[&"locale", "SET_LANGUAGE", "choice", ["", "zh_CN", "en"], ["LANG_SYSTEM", "中文", "English"]],
	[&"sfx_volume", "SET_VOLUME", "slider", [0.0, 1.0, 0.05]],
	[&"muted", "SET_MUTED", "toggle"],
	[&"anim_speed", "SET_ANIM_SPEED", "choice", [0.0, 0.5, 1.0, 2.0], ["ANIM_OFF", "ANIM_SLOW", "ANIM_NORMAL", "ANIM_FAST"]],
	[&"confirm_play", "SET_CONFIRM_PLAY", "toggle"],
	[&"hints", "SET_HINTS", "toggle"],
	[&"why_panel", "SET_WHY_PANEL", "toggle"],
	[&"heat_map", "SET_HEAT_MAP", "toggle"],
	[&"card_counter", "SET_CARD_COUNTER", "toggle"],
	[&"auto_play_on_timeouts", "SET_AUTO_PLAY_TIMEOUTS", "toggle"],
	[&"ai_debug", "SET_AI_DEBUG", "toggle"],
	[&"low_perf", "SET_LOW_PERF", "toggle"],
	[&"card_size", "SET_CARD_SIZE", "choice", [0.85, 1.0, 1.15], ["SIZE_SMALL", "SIZE_NORMAL", "SIZE_LARGE"]],
	[&"drag_coverage", "SET_DRAG_COVERAGE", "slider", [0.2, 0.8, 0.05]],
	[&"history_rounds", "SET_HISTORY_ROUNDS", "choice", [3, 4, 5], ["3", "4", "5"]],
]

var _controls := {}  # key -> Control


func _ready() -> void:
	var page := UiKit.page(self, "MENU_SETTINGS", &"menu")
	var scroll: ScrollContainer = page[1]
	var back: Button = page[2]
	var center := CenterContainer.new()
	center.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(center)
	var panel := UiKit.panel()
	center.add_child(panel)
	var grid := GridContainer.new()
	grid.columns = 2
	grid.add_theme_constant_override(&"h_separation", 28)
	grid.add_theme_constant_override(&"v_separation", 10)
	panel.add_child(grid)
	for row: Array in ROWS:
		var label := UiKit.label(row[1], 22)
		label.custom_minimum_size.x = 360
		grid.add_child(label)
		var control := _make_control(row)
		control.name = String(row[0])
		_controls[row[0]] = control
		grid.add_child(control)
	back.grab_focus.call_deferred()


## The control editing `key` (tests drive it).
func control_for(key: StringName) -> Control:
	return _controls.get(key)


func _make_control(row: Array) -> Control:
	var key: StringName = row[0]
	var value: Variant = Settings.get_value(key)
	match row[2]:
		"toggle":
			var c := CheckButton.new()
			c.button_pressed = value
			c.toggled.connect(func(on: bool) -> void: Settings.set_value(key, on))
			return c
		"slider":
			var s := HSlider.new()
			s.min_value = row[3][0]
			s.max_value = row[3][1]
			s.step = row[3][2]
			s.value = value
			s.custom_minimum_size = Vector2(260, 40)
			s.value_changed.connect(func(v: float) -> void: Settings.set_value(key, v))
			return s
		_:
			var values: Array = row[3]
			var o := UiKit.options(row[4], maxi(values.find(value), 0))
			if key == &"locale":
				o.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
				o.set_item_text(0, tr("LANG_SYSTEM"))
			o.item_selected.connect(func(i: int) -> void: Settings.set_value(key, values[i]))
			return o


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED and _controls.has(&"locale"):
		(_controls[&"locale"] as OptionButton).set_item_text(0, tr("LANG_SYSTEM"))
