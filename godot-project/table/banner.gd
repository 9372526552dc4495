class_name Banner
extends Label
## Big centred announcements ("Table cleared", "Partner takes the lead", "Bomb!") that fade out.

var _tween: Tween


func _ready() -> void:
	name = "Banner"
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	add_theme_font_size_override(&"font_size", 36)
	add_theme_color_override(&"font_color", Color(1.0, 0.9, 0.55))
	add_theme_constant_override(&"outline_size", 10)
	add_theme_color_override(&"font_outline_color", Color(0.05, 0.05, 0.02, 0.9))
	modulate.a = 0.0
	z_index = 500


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


## Shows `text` (already translated) for about `hold` seconds.
func announce(text: String, hold := 1.1) -> void:
	self.text = text
	if _tween != null:
		_tween.kill()
	var t := Settings.anim_time(0.2)
	if t <= 0.0:
		modulate.a = 1.0
		_tween = create_tween()
		_tween.tween_interval(maxf(hold, 0.6))
		_tween.tween_callback(func() -> void: modulate.a = 0.0)
		return
	scale = Vector2(0.85, 0.85)
	pivot_offset = size / 2.0
	_tween = create_tween()
	_tween.set_parallel(true)
	_tween.tween_property(self, "modulate:a", 1.0, t)
	_tween.tween_property(self, "scale", Vector2.ONE, t).set_trans(Tween.TRANS_BACK).set_ease(Tween.EASE_OUT)
	_tween.chain().tween_interval(hold)
	_tween.chain().tween_property(self, "modulate:a", 0.0, t * 1.5)


func is_showing() -> bool:
	return modulate.a > 0.0
