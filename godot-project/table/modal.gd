class_name Modal
extends Control
## A modal layer (modal.tscn): dims the table and shows one centred panel; input below is blocked
## while open. `open(title, lines, buttons)` fills the panel; `closed` reports which button was pressed.
## `open_on_table` shows the panel on the table instead (the end of a deal): no dim, one row (the
## title beside the buttons) in a rect the table gives, e.g. where its action buttons stand.
## `open_on_table(…, stacked)` stacks title, lines and buttons there (the deal's ceremony card);
## `open_screen` shows a screen over the whole table, dimmed, with no dialog frame (the match's end).
## Make one with `Modal.create()` (the scene holds the layout; this script only the behaviour).

## The button with this id was pressed (the panel is closed already).
signal closed(id: StringName)

## The opaque panel (the table must not show through); its look is the DialogPanel theme variation.
@onready var panel: PanelContainer = %Panel
## Height and width of each button; the button row is %Buttons.
@export var button_min_size := Vector2(170, 52)
## Font size of the buttons.
@export_range(12, 48, 1) var button_font_size := 22
## The panel's look on the table (open_on_table): a strip over the felt, not a dialog.
@export var table_panel_style: StyleBox
## The screen's look (open_screen): the felt darkened under it, no dialog frame.
@export var screen_panel_style: StyleBox
## The title's size on a screen (open_screen).
@export_range(12, 72, 1) var screen_title_size := 46
## The title's size on the table (beside the buttons).
@export_range(12, 48, 1) var table_title_size := 24
## The panel stands on the table (open_on_table), in the rect `place` gave.
var on_table := false
var _tween: Tween
## The button Esc presses (the panel's "cancel"); &"" = Esc does nothing.
var cancel_id: StringName = &""
## The button `press_after` presses by itself, and the seconds until then.
var _auto_id: StringName = &""
var _auto_left := 0.0
## The scene's gap between title, lines and buttons (a stacked card on the table narrows it).
var _body_gap := 14


## A closed modal built from modal.tscn (the layout: %Dim, %Panel, %Title, %Lines, %Buttons).
static func create() -> Modal:
	return load("res://table/modal.tscn").instantiate()


func _ready() -> void:
	_body_gap = (%Body as BoxContainer).get_theme_constant(&"separation")
	visible = false
	set_process(false)


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


func is_open() -> bool:
	return visible


## Shows a panel: a title, lines of text (already translated; a Control is added as is) and
## buttons [[id, label key], …] (the first gets the focus). Esc presses `cancel` when given.
func open(title: String, lines: Array, buttons: Array, cancel: StringName = &"") -> void:
	cancel_id = cancel
	_auto_id = &""
	set_process(false)
	var body: Container = %Lines
	var row: Container = %Buttons
	for box: Container in [body, row]:
		for c in box.get_children():
			c.visible = false
			c.name = &"Closed"  # frees the name for the new panel's button of the same id
			c.queue_free()  # not removed now: it may be the button whose signal brought us here
	(%Title as Label).text = title
	_set_on_table(false)
	for line: Variant in lines:
		body.add_child(line if line is Control else text_line(String(line)))
	body.visible = not lines.is_empty()
	var first: Button
	for b: Array in buttons:
		var button := UiKit.button(b[1], _close.bind(b[0]), button_font_size, button_min_size)
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


## Shows a panel on the table, not over it: like `open`, but the table is not dimmed and the
## title stands beside the buttons in `rect` (global), which `place` moves when the table lays
## out again.
func open_on_table(title: String, lines: Array, buttons: Array, rect: Rect2, cancel: StringName = &"",
		stacked := false) -> void:
	open(title, lines, buttons, cancel)
	_set_on_table(true)
	var body: BoxContainer = %Body
	body.vertical = stacked
	# Stacked on the felt the card is short: title, lines and buttons closer together.
	body.add_theme_constant_override(&"separation", 6 if stacked else _body_gap)
	place(rect)


## Shows a screen over the table (the match's end): like `open`, the table dimmed further and the
## panel without its dialog frame, `lines` (its body) laid out over the whole table.
func open_screen(title: String, lines: Array, buttons: Array, cancel: StringName = &"") -> void:
	open(title, lines, buttons, cancel)
	if screen_panel_style != null:
		panel.add_theme_stylebox_override(&"panel", screen_panel_style)
	var dim: ColorRect = %Dim
	dim.color = Color(dim.color, 0.8)
	(%Title as Label).add_theme_font_size_override(&"font_size", screen_title_size)


## Moves a panel on the table to `rect` (global), centred in it.
func place(rect: Rect2) -> void:
	if not on_table:
		return
	var centre: Control = %Center
	centre.set_anchors_preset(Control.PRESET_TOP_LEFT)
	centre.global_position = rect.position
	centre.size = rect.size


func _set_on_table(yes: bool) -> void:
	on_table = yes
	(%Dim as CanvasItem).visible = not yes
	(%Body as BoxContainer).vertical = not yes
	var title: Label = %Title
	if yes:
		if table_panel_style != null:
			panel.add_theme_stylebox_override(&"panel", table_panel_style)
		title.add_theme_font_size_override(&"font_size", table_title_size)
		title.size_flags_vertical = Control.SIZE_SHRINK_CENTER
		# Clicks around the strip reach nothing: the table's input is locked while it is up.
		return
	panel.remove_theme_stylebox_override(&"panel")
	(%Body as BoxContainer).add_theme_constant_override(&"separation", _body_gap)
	var dim: ColorRect = %Dim
	dim.color = Color(dim.color, 0.45)
	title.remove_theme_font_size_override(&"font_size")
	title.size_flags_vertical = Control.SIZE_FILL
	(%Center as Control).set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)


## Adds a line of text under the open panel's lines (something learnt after it opened, e.g. an
## online rating change after the match's result).
func add_line(text: String) -> void:
	var body: Container = %Lines
	body.add_child(text_line(text))
	body.visible = true


## A line of the panel's text (its look), not yet added: `open` takes it among its lines, and
## its owner may change its text while the panel is up (a clock's seconds).
func text_line(text: String) -> Label:
	var l: Label = (%LineTemplate as Label).duplicate()
	l.unique_name_in_owner = false
	l.text = text
	l.visible = true
	return l


func _focus(b: Button) -> void:
	if is_instance_valid(b) and b.is_inside_tree() and b.visible:
		b.grab_focus()


## Presses a button by id (tests, keyboard).
func press(id: StringName) -> void:
	if visible:
		_close(id)


## Presses the open panel's button `id` by itself after `seconds`, the button counting them down
## ("Next deal (5)"): online, where the server moves on whatever the panel shows.
func press_after(id: StringName, seconds: float) -> void:
	var b := button(id)
	if not visible or b == null:
		return
	_auto_id = id
	_auto_left = seconds
	b.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	b.set_meta(&"label", tr(b.text))
	_count_down(b)
	set_process(true)


## Seconds until the open panel presses a button by itself (0: it will not).
func seconds_to_auto_press() -> float:
	return _auto_left if visible and _auto_id != &"" else 0.0


func _process(delta: float) -> void:
	if not visible or _auto_id == &"":
		set_process(false)
		return
	_auto_left -= delta
	if _auto_left <= 0.0:
		var id := _auto_id
		_auto_id = &""
		set_process(false)
		press(id)
		return
	var b := button(_auto_id)
	if b != null:
		_count_down(b)


func _count_down(b: Button) -> void:
	b.text = "%s (%d)" % [String(b.get_meta(&"label", "")), ceili(_auto_left)]


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


## Asks a yes/no question; returns true when `yes_key`'s button was pressed (Esc = no). `more`:
## lines under the text (as `open` takes them).
func confirm(title: String, text: String, yes_key: String, more: Array = []) -> bool:
	open(title, [text] + more, [[&"no", "BTN_CANCEL"], [&"yes", yes_key]], &"no")
	var answer: StringName = await closed
	return answer == &"yes"


func _close(id: StringName) -> void:
	visible = false
	_auto_id = &""
	set_process(false)
	closed.emit(id)
