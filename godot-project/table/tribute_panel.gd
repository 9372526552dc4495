class_name TributePanel
extends PanelContainer
## The tribute / return / resist lines of a deal, in the middle of the table between the north
## and south plays; hidden a moment after the first play of the deal.

var _lines: VBoxContainer
var _hide_tween: Tween
## Where the panel is centred (the table sets it on layout).
var center := Vector2.ZERO


func _init() -> void:
	name = "TributeInfo"
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_lines = UiKit.vbox(4)
	add_child(_lines)
	visible = false


func add_line(text: String) -> void:
	var l := UiKit.label(text, 19)
	l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_lines.add_child(l)
	visible = true
	place.call_deferred()  # the panel has its new size after this frame's sort


## Centres the panel on `center`.
func place() -> void:
	reset_size()
	position = center - size / 2.0


## The texts of the lines shown.
func lines() -> PackedStringArray:
	var out := PackedStringArray()
	for l: Label in _lines.get_children():
		out.append(l.text)
	return out


func clear() -> void:
	for c in _lines.get_children():
		_lines.remove_child(c)
		c.queue_free()
	visible = false


func hide_later() -> void:
	if _hide_tween != null and _hide_tween.is_valid():
		return
	_hide_tween = create_tween()
	_hide_tween.tween_interval(maxf(Settings.anim_time(1.5), 0.6))
	_hide_tween.tween_callback(clear)
