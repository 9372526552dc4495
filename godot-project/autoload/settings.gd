extends Node
## Player settings (autoload "Settings"), saved to user://settings.cfg in section [settings].
##
## Read with `Settings.get_value(&"key")` or the typed helpers; change with `set_value`, which saves
## and emits `changed`. Keys and defaults are in DEFAULTS; unknown keys and values of the wrong type
## in the file are ignored (the default is used), so an old or hand-edited file never breaks the game.

## A setting changed (already saved). Screens that depend on it listen to this.
signal changed(key: StringName, value: Variant)

const DEFAULT_PATH := "user://settings.cfg"
const SECTION := "settings"
## Locales the game ships translations for.
const LOCALES: Array[String] = ["zh_CN", "en"]
## Animation speed choices: 0 = animations off.
const ANIM_SPEEDS: Array[float] = [0.0, 0.5, 1.0, 2.0]
## Card size choices (a factor on the size the layout picks).
const CARD_SIZES: Array[float] = [0.85, 1.0, 1.15]

const DEFAULTS := {
	&"locale": "",  # "" = follow the system (Chinese systems get zh_CN, others en)
	&"sfx_volume": 0.8,  # 0..1
	&"muted": false,
	&"anim_speed": 1.0,  # one of ANIM_SPEEDS
	&"confirm_play": false,  # ask before each play
	&"hints": true,  # training: hint button, readings, wild snap
	&"why_panel": true,  # training: show the AI's reasons for a hint
	&"heat_map": false,  # training: colour the hand by what the cards are good for
	&"ai_debug": false,  # overlay the AI's candidates and scores
	&"low_perf": false,  # no effects, no shadows, shorter animations
	&"card_size": 1.0,  # one of CARD_SIZES
	&"high_contrast_cards": false,  # cards drawn with resources/style/card_high_contrast.tres
	&"drag_coverage": 0.4,  # share of a card's visible strip a drag must cover to take it
	&"history_rounds": 4,  # rounds kept in the play history sidebar (3..5)
	&"history_open": false,  # play history sidebar expanded (out of the way until asked for)
	&"group_view": false,  # hand shown by groups (singles, pairs, …) instead of by rank
	&"card_counter": false,  # matches: show the card counter (training always shows it)
	&"auto_play_on_timeouts": true,  # matches: two turn timeouts in a row hand the seat to the AI
	&"rules_preset": "competition",
	&"ai_levels": [2, 2, 2],  # AI difficulty of seats 1..3 (1 easy, 2 normal, 3 hard, 4 expert)
	&"online_server": "",  # online: the player's server ("" = the build's, Online menu)
	&"online_nickname": "",  # online: the last nickname used
	&"online_ca_file": "",  # online: a PEM file of CAs trusted besides Mozilla's roots ("" = none)
}

var _values := {}
var _path := DEFAULT_PATH
var _saving := true


func _ready() -> void:
	if is_test_run():
		# The headless test suite must not depend on (or change) the player's own settings.
		use_file_for_tests("")
		_values[&"locale"] = "en"
	else:
		load_from(DEFAULT_PATH)
	apply_locale()


## Whether this run is the test suite (tools/test-godot runs res://tests_godot/…).
static func is_test_run() -> bool:
	for arg in OS.get_cmdline_args():
		if arg.begins_with("res://tests_godot/"):
			return true
	return false


## Loads settings from `path` (missing file = defaults) and remembers it for saving.
func load_from(path: String) -> void:
	_path = path
	_values = DEFAULTS.duplicate(true)
	var file := ConfigFile.new()
	if file.load(path) != OK:
		return
	for key: StringName in DEFAULTS:
		if file.has_section_key(SECTION, key):
			var v: Variant = file.get_value(SECTION, key)
			if _valid(key, v):
				_values[key] = v


## Tests: use another file (or none with path "") and start from the defaults.
func use_file_for_tests(path: String) -> void:
	_saving = path != ""
	if _saving:
		DirAccess.remove_absolute(path)
		load_from(path)
	else:
		_values = DEFAULTS.duplicate(true)


## Back to the defaults of a test run (English, nothing saved).
func reset_for_tests() -> void:
	use_file_for_tests("")
	_values[&"locale"] = "en"
	apply_locale()


func get_value(key: StringName) -> Variant:
	if not DEFAULTS.has(key):
		push_warning("Settings: unknown key %s" % key)
		return null
	return _values[key]


## Sets, saves and announces a value. Wrong keys or types are reported and ignored.
func set_value(key: StringName, value: Variant) -> void:
	if not DEFAULTS.has(key):
		push_warning("Settings: unknown key %s" % key)
		return
	if typeof(value) == TYPE_INT and typeof(DEFAULTS[key]) == TYPE_FLOAT:
		value = float(value)
	if not _valid(key, value):
		push_warning("Settings: bad value %s for %s" % [value, key])
		return
	if _values[key] == value:
		return
	_values[key] = value
	save()
	if key == &"locale":
		apply_locale()
	changed.emit(key, value)


func save() -> void:
	if not _saving:
		return
	var file := ConfigFile.new()
	for key: StringName in _values:
		file.set_value(SECTION, key, _values[key])
	var err := file.save(_path)
	if err != OK:
		push_warning("Settings: cannot save %s: %s" % [_path, error_string(err)])


## The locale in use: the chosen one, else the system's if we have it, else English.
func effective_locale() -> String:
	var chosen: String = _values[&"locale"]
	if chosen in LOCALES:
		return chosen
	return "zh_CN" if OS.get_locale().begins_with("zh") else "en"


func apply_locale() -> void:
	var locale := effective_locale()
	if TranslationServer.get_locale() != locale:
		TranslationServer.set_locale(locale)


## Seconds an animation of `base` seconds takes now: 0 when animations are off; low-performance
## mode caps it at half.
func anim_time(base: float) -> float:
	var speed: float = _values[&"anim_speed"]
	if speed <= 0.0:
		return 0.0
	var t := base / speed
	return t * 0.5 if _values[&"low_perf"] else t


func animations_on() -> bool:
	return float(_values[&"anim_speed"]) > 0.0


func effects_on() -> bool:
	return not bool(_values[&"low_perf"]) and animations_on()


func _valid(key: StringName, value: Variant) -> bool:
	var want := typeof(DEFAULTS[key])
	if typeof(value) != want:
		return false
	match key:
		&"locale":
			return value == "" or value in LOCALES
		&"sfx_volume":
			return value >= 0.0 and value <= 1.0
		&"anim_speed":
			return value in ANIM_SPEEDS
		&"card_size":
			return value in CARD_SIZES
		&"drag_coverage":
			return value > 0.0 and value <= 1.0
		&"history_rounds":
			return value >= 3 and value <= 5
		&"ai_levels":
			return value is Array and (value as Array).size() == 3 and (value as Array).all(func(l: Variant) -> bool: return l is int and l >= 1 and l <= 4)
		&"rules_preset":
			return value in ["competition", "huaian", "house"]
	return true
