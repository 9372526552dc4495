class_name Modal
extends Control
## A modal layer: dims the table and shows one centred panel; input below is blocked while open.
## `open(title, lines, buttons)` builds the panel; `closed` reports which button was pressed.

## The button with this id was pressed (the panel is closed already).
signal closed(id: StringName)

var panel: PanelContainer
var _body: VBoxContainer
var _tween: Tween
## The button Esc presses (the panel's "cancel"); &"" = Esc does nothing.
var cancel_id: StringName = &""


func _ready() -> void:
	name = "Modal"
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_STOP
	z_index = 600
	var dim := ColorRect.new()
	dim.color = Color(0, 0, 0, 0.45)
	dim.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	dim.mouse_filter = Control.MOUSE_FILTER_IGNORE
	add_child(dim)
	var center := CenterContainer.new()
	center.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	center.mouse_filter = Control.MOUSE_FILTER_IGNORE
	add_child(center)
	panel = PanelContainer.new()
	panel.name = "Panel"
	panel.theme_type_variation = &"DialogPanel"  # opaque: the table must not show through
	center.add_child(panel)
	_body = UiKit.vbox(14)
	panel.add_child(_body)
	visible = false


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


func is_open() -> bool:
	return visible


## Shows a panel: a title, lines of text (already translated; a Control is added as is) and
## buttons [[id, label key], …] (the first gets the focus). Esc presses `cancel` when given.
func open(title: String, lines: Array, buttons: Array, cancel: StringName = &"") -> void:
	cancel_id = cancel
	for c in _body.get_children():
		c.visible = false
		c.queue_free()  # not removed now: it may be the button whose signal brought us here
	var t := UiKit.label(title, 32, Color(0.98, 0.85, 0.45))
	t.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	t.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_body.add_child(t)
	for line: Variant in lines:
		if line is Control:
			_body.add_child(line)
		else:
			var l := UiKit.label(String(line), 22)
			l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
			l.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
			_body.add_child(l)
	var row := UiKit.hbox(16)
	row.alignment = BoxContainer.ALIGNMENT_CENTER
	_body.add_child(row)
	var first: Button
	for b: Array in buttons:
		var button := UiKit.button(b[1], _close.bind(b[0]), 22, Vector2(170, 52))
		button.name = String(b[0])
		row.add_child(button)
		if first == null:
			first = button
	visible = true
	var t_in := Settings.anim_time(0.15)
	if t_in > 0.0:
		modulate.a = 0.0
		if _tween != null:
			_tween.kill()
		_tween = create_tween()
		_tween.tween_property(self, "modulate:a", 1.0, t_in)
	else:
		modulate.a = 1.0
	if first != null:
		_focus.call_deferred(first)


func _focus(b: Button) -> void:
	if is_instance_valid(b) and b.is_inside_tree() and b.visible:
		b.grab_focus()


## Presses a button by id (tests, keyboard).
func press(id: StringName) -> void:
	if visible:
		_close(id)


func button(id: StringName) -> Button:
	for b in find_children(String(id), "Button", true, false):
		if not b.is_queued_for_deletion():
			return b
	return null


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if visible and key != null and key.pressed and not key.echo and key.keycode == KEY_ESCAPE and cancel_id != &"":
		get_viewport().set_input_as_handled()
		_close(cancel_id)


## Asks a yes/no question; returns true when `yes_key`'s button was pressed (Esc = no).
func confirm(title: String, text: String, yes_key: String) -> bool:
	open(title, [text], [[&"no", "BTN_CANCEL"], [&"yes", yes_key]], &"no")
	var answer: StringName = await closed
	return answer == &"yes"


func _close(id: StringName) -> void:
	visible = false
	closed.emit(id)
