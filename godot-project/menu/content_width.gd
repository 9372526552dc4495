class_name ContentWidth
extends Node
## Keeps its parent Control (a screen's content column) at most `max_width` lp wide and centred
## in what holds it: on a wide screen (2340×1080 is 1560 lp across) a form stays a column of
## cards instead of stretching edge to edge. A child Node, so any container can take it.

## The widest the content may be (lp).
@export var max_width := 1100.0

var _target: Control
var _holder: Control


func _ready() -> void:
	_target = get_parent() as Control
	_holder = _target.get_parent() as Control if _target != null else null
	if _holder == null:
		push_error("ContentWidth: the parent and its parent must be Controls")
		return
	_target.size_flags_horizontal = Control.SIZE_SHRINK_CENTER
	_holder.resized.connect(_fit)
	_fit()


func _fit() -> void:
	var room := _holder.size.x
	if _holder is MarginContainer:
		room -= _holder.get_theme_constant(&"margin_left") + _holder.get_theme_constant(&"margin_right")
	elif _holder is ScrollContainer:
		room -= (_holder as ScrollContainer).get_v_scroll_bar().size.x if (_holder as ScrollContainer).get_v_scroll_bar().visible else 0.0
	var w := floorf(minf(max_width, maxf(room, 0.0)))
	if not is_equal_approx(_target.custom_minimum_size.x, w):
		_target.custom_minimum_size.x = w
