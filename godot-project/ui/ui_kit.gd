class_name UiKit
extends RefCounted
## Small builders for the screens that lay themselves out in code. Texts are translation keys:
## Labels and Buttons translate them automatically and follow language changes.


static func label(key: String, font_size := 22, color := Color(0, 0, 0, 0)) -> Label:
	var l := Label.new()
	l.text = key
	l.add_theme_font_size_override(&"font_size", font_size)
	if color.a > 0.0:
		l.add_theme_color_override(&"font_color", color)
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


## An OptionButton whose items are translation keys; ids are the item indices.
static func options(keys: Array, selected := 0, font_size := 22) -> OptionButton:
	var o := OptionButton.new()
	for key: String in keys:
		o.add_item(key)
	o.selected = clampi(selected, 0, keys.size() - 1)
	o.add_theme_font_size_override(&"font_size", font_size)
	o.custom_minimum_size = Vector2(200, 48)
	return o


static func vbox(separation := 12) -> VBoxContainer:
	var v := VBoxContainer.new()
	v.add_theme_constant_override(&"separation", separation)
	return v


static func hbox(separation := 12) -> HBoxContainer:
	var h := HBoxContainer.new()
	h.add_theme_constant_override(&"separation", separation)
	return h


static func panel() -> PanelContainer:
	return PanelContainer.new()


## A free-layout frame filling `owner`'s safe area (margin `base_margin`); it ignores the mouse.
static func safe_frame(owner: Control, base_margin: int) -> Control:
	var safe := SafeArea.new()
	safe.base_margin = base_margin
	owner.add_child(safe)
	var frame := Control.new()
	frame.name = "Frame"
	frame.mouse_filter = Control.MOUSE_FILTER_IGNORE
	safe.add_child(frame)
	return frame


## Builds a full-screen page in `owner` inside the safe area: a top row with a Back button (to
## `back_screen`) and the title, a rule under it, then a scroll area filling the rest.
## Returns [column: VBoxContainer, scroll: ScrollContainer, back: Button].
static func page(owner: Control, title_key: String, back_screen: StringName) -> Array:
	owner.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var safe := SafeArea.new()
	owner.add_child(safe)
	var column := vbox(12)
	safe.add_child(column)
	var top := hbox(16)
	column.add_child(top)
	var back := button("BACK", EventBus.screen_requested.emit.bind(back_screen), 22, Vector2(140, 52))
	back.name = "Back"
	top.add_child(back)
	top.add_child(label(title_key, 40, Color(0.98, 0.85, 0.45)))
	# A rule under the title row: the page scrolls beneath it, never into the title's space.
	var rule := HSeparator.new()
	rule.name = "TitleRule"
	var line := StyleBoxLine.new()
	line.color = Color(0.91, 0.76, 0.44, 0.6)
	line.thickness = 2
	rule.add_theme_stylebox_override(&"separator", line)
	rule.add_theme_constant_override(&"separation", 2)
	column.add_child(rule)
	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	column.add_child(scroll)
	return [column, scroll, back]


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
