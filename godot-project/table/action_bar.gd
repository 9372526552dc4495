class_name ActionBar
extends HBoxContainer
## The player's buttons under the hand: gold Play (widest), jade Hint, slate Pass, and Sort.
## The layout is action_bar.tscn; colours and Play's width follow TableStyle ("Action bar").

@onready var _pass: Button = $PassButton
@onready var _hint: Button = $HintButton
@onready var _play: Button = $PlayButton
@onready var _sort: Button = $SortButton


func _ready() -> void:
	_restyle()
	TableStyle.current().changed.connect(_restyle)


func _restyle() -> void:
	var st := TableStyle.current()
	var base_w := _sort.custom_minimum_size.x
	_play.custom_minimum_size.x = base_w * st.play_button_width
	for pair: Array in [[_play, st.play_button_color, st.play_button_text_color],
			[_hint, st.hint_button_color, st.action_text_color],
			[_pass, st.pass_button_color, st.action_text_color]]:
		var b: Button = pair[0]
		var colour: Color = pair[1]
		var text: Color = pair[2]
		b.add_theme_stylebox_override(&"normal", _box(colour))
		b.add_theme_stylebox_override(&"hover", _box(colour.lightened(0.12)))
		b.add_theme_stylebox_override(&"pressed", _box(colour.darkened(0.15)))
		b.add_theme_stylebox_override(&"disabled", _box(colour.darkened(st.action_disabled_darken)))
		for item: StringName in [&"font_color", &"font_hover_color", &"font_pressed_color", &"font_focus_color"]:
			b.add_theme_color_override(item, text)
		b.add_theme_color_override(&"font_disabled_color", Color(text, 0.6))


static func _box(colour: Color) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = colour
	box.set_corner_radius_all(12)
	box.content_margin_left = 16
	box.content_margin_right = 16
	# A lighter top edge: a slight gradient look without a texture.
	box.border_width_top = 2
	box.border_color = colour.lightened(0.3)
	box.shadow_color = Color(0, 0, 0, 0.3)
	box.shadow_size = 4
	box.shadow_offset = Vector2(0, 2)
	return box
