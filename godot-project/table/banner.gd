class_name Banner
extends Label
## Big centred announcements ("Table cleared", "Partner takes the lead", "Bomb!") that fade out;
## colours, outline and font sizes come from the TableStyle.

## A banner went up (the table hides its toast: they share the prompt row).
signal announced

var _tween: Tween
## The width the table's layout gives the banner (0: its own size). A label grows to its text at
## the large size and would then never shrink back into a narrower prompt (at 2340×1080 the
## player's seat stands left of it, issue 54).
var room := 0.0
## The look (table_default.tres unless a tool or test chose another).
var style: TableStyle = TableStyle.current()


func _ready() -> void:
	add_theme_font_size_override(&"font_size", style.banner_font_size)
	add_theme_color_override(&"font_color", style.banner_color)
	add_theme_constant_override(&"outline_size", style.banner_outline_size)
	add_theme_color_override(&"font_outline_color", style.banner_outline_color)


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


## Shows `text` (already translated) for about `hold` seconds.
func announce(text: String, hold := 1.1) -> void:
	announced.emit()
	self.text = text
	_fit()
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


## The largest font size (the style's banner_min_font_size..banner_font_size) at which the text fits the banner's width, so a long
## announcement never runs over the seats beside it.
func refit() -> void:
	_fit()


func _fit() -> void:
	var font := get_theme_font(&"font")
	var fs := style.banner_font_size
	var w := room if room > 0.0 else size.x
	while fs > style.banner_min_font_size and font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x + 24.0 > w:
		fs -= 2
	add_theme_font_size_override(&"font_size", fs)
	if room > 0.0:
		update_minimum_size()  # the cached least size is still the old font's
		size.x = room


## Hides the banner at once: the next play is on the table, the announcement is stale.
func dismiss() -> void:
	if _tween != null:
		_tween.kill()
		_tween = null
	modulate.a = 0.0


func is_showing() -> bool:
	return modulate.a > 0.0
