class_name UiKit
extends RefCounted
## Small builders for the few nodes still made in code (the screens are composed in their .tscn),
## and wording helpers. Texts are translation keys: Labels and Buttons translate them
## automatically and follow language changes.


static func label(key: String, font_size := 22, color := Color(0, 0, 0, 0)) -> Label:
	var l := Label.new()
	l.text = key
	l.add_theme_font_size_override(&"font_size", font_size)
	if color.a > 0.0:
		l.add_theme_color_override(&"font_color", color)
	return l


## A line of text laid over the table (word-art, a big moment's name): centred both ways, already
## translated by its owner, and never in the pointer's way.
static func overlay_text(node_name: StringName) -> Label:
	var l := Label.new()
	l.name = node_name
	l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	l.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	l.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	l.mouse_filter = Control.MOUSE_FILTER_IGNORE
	return l


static func button(key: String, on_pressed: Callable, font_size := 24, min_size := Vector2(0, 56)) -> Button:
	var b := Button.new()
	b.text = key
	b.add_theme_font_size_override(&"font_size", font_size)
	b.custom_minimum_size = min_size
	b.focus_mode = Control.FOCUS_ALL
	if on_pressed.is_valid():
		b.pressed.connect(on_pressed)
	return b


static func vbox(separation := 12) -> VBoxContainer:
	var v := VBoxContainer.new()
	v.add_theme_constant_override(&"separation", separation)
	return v


static func hbox(separation := 12) -> HBoxContainer:
	var h := HBoxContainer.new()
	h.add_theme_constant_override(&"separation", separation)
	return h


## "1st", "2nd"… or 头游, 二游… for a finishing place 1..4.
static func place_text(place: int) -> String:
	return TranslationServer.translate("PLACE_%d" % clampi(place, 1, 4))


## `key` formatted with `n` ("{n} deals"), or `key`_ONE when n is 1 and the language has that
## form ("1 deal"; Chinese has one form for every number).
static func count_text(key: String, n: int) -> String:
	var one := key.trim_suffix("_FMT") + "_ONE"
	if n == 1 and TranslationServer.translate(one) != one:
		return TranslationServer.translate(one)
	return TranslationServer.translate(key).format({n = n})
