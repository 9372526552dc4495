class_name SafeArea
extends MarginContainer
## A full-screen container whose margins keep its content out of notches, rounded corners and
## system bars (DisplayServer's safe area, mapped into this viewport), plus a small base margin.

@export var base_margin := 12


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	get_viewport().size_changed.connect(_update)
	_update()


func _update() -> void:
	var m := margins()
	add_theme_constant_override(&"margin_left", base_margin + int(m.x))
	add_theme_constant_override(&"margin_top", base_margin + int(m.y))
	add_theme_constant_override(&"margin_right", base_margin + int(m.z))
	add_theme_constant_override(&"margin_bottom", base_margin + int(m.w))


## Left, top, right, bottom insets in viewport units (0 on desktops and in headless runs).
func margins() -> Vector4:
	if DisplayServer.get_name() == "headless":
		return Vector4.ZERO
	var screen := DisplayServer.screen_get_size()
	var safe := DisplayServer.get_display_safe_area()
	if screen.x <= 0 or safe.size.x <= 0 or safe.size == screen:
		return Vector4.ZERO
	var window := DisplayServer.window_get_size()
	var view := get_viewport().get_visible_rect().size
	if window.x <= 0:
		return Vector4.ZERO
	var k := view.x / float(window.x)  # window pixels -> viewport units
	var window_pos := DisplayServer.window_get_position()
	var left := maxf(safe.position.x - window_pos.x, 0.0)
	var top := maxf(safe.position.y - window_pos.y, 0.0)
	var right := maxf((window_pos.x + window.x) - safe.end.x, 0.0)
	var bottom := maxf((window_pos.y + window.y) - safe.end.y, 0.0)
	return Vector4(left, top, right, bottom) * k
