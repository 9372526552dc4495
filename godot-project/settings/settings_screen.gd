class_name SettingsScreen
extends Control
## Settings screen: every player setting (autoload Settings, saved to user://settings.cfg as soon
## as it changes).
##
## The rows are in settings_screen.tscn: in its three cards' grids (Grid: the game; Grid2: the
## table's aids; Grid3: display and online), a Label and a control named after the setting's key;
## side by side on a landscape screen, so a phone's landscape shows them all without scrolling
## (issue 54), one over the other on a narrow one. The control's type says how it edits the setting: a CheckButton toggles it, an
## HSlider sets a number (the slider's own min, max and step), an OptionButton picks item i of its
## metadata "values", a LineEdit sets a text (saved when the player presses Enter or leaves the
## field). Adding a setting is a key in Settings.DEFAULTS and a row in the scene.

## Where Back goes (the Online home opens Settings for its server address); reset on leaving.
static var back_to := &"menu"

@onready var _grids: Array[GridContainer] = [%Grid, %Grid2, %Grid3]

var _controls := {}  # key -> Control


func _ready() -> void:
	var back: Button = %Back
	back.pressed.connect(func() -> void:
		var to := back_to
		back_to = &"menu"
		EventBus.screen_requested.emit(to))
	for grid in _grids:
		for c in grid.get_children():
			if c is Label:
				continue
			var key := StringName(c.name)
			_bind(key, c)
			_controls[key] = c
	back.grab_focus.call_deferred()


## The control editing `key` (tests drive it).
func control_for(key: StringName) -> Control:
	return _controls.get(key)


## Shows the setting's value on `control` and saves what the player changes.
func _bind(key: StringName, control: Control) -> void:
	var value: Variant = Settings.get_value(key)
	if control is CheckButton:
		var c := control as CheckButton
		c.button_pressed = value
		c.toggled.connect(func(on: bool) -> void: Settings.set_value(key, on))
	elif control is HSlider:
		var s := control as HSlider
		s.value = value
		s.value_changed.connect(func(v: float) -> void: Settings.set_value(key, v))
	elif control is OptionButton:
		var o := control as OptionButton
		var values: Array = o.get_meta(&"values")
		o.selected = maxi(values.find(value), 0)
		o.item_selected.connect(func(i: int) -> void: Settings.set_value(key, values[i]))
	elif control is LineEdit:
		var e := control as LineEdit
		e.text = value
		var keep := func() -> void: Settings.set_value(key, e.text.strip_edges())
		e.text_submitted.connect(func(_t: String) -> void: keep.call())
		e.focus_exited.connect(keep)
	else:
		push_error("SettingsScreen: %s is a %s; rows are CheckButton, HSlider, OptionButton or LineEdit" % [key, control.get_class()])
