class_name ContentWidth
extends Node
## Keeps its parent Control (a screen's content column) at most `max_width` lp wide and centred
## in what holds it: on a wide screen (2340×1080 is 1560 lp across) a form stays a column of
## cards instead of stretching edge to edge. A child Node, so any container can take it.
##
## The room is measured on the first ancestor that is not a Container (the screen's root, sized by
## its anchors), less the margins of the MarginContainers between: a container's own width would
## never shrink below the minimum this sets, and a narrower window would then scroll sideways.

## The widest the content may be (lp).
@export var max_width := 1100.0

var _target: Control
var _root: Control
var _margins: Array[MarginContainer] = []


func _ready() -> void:
	_target = get_parent() as Control
	if _target == null:
		push_error("ContentWidth: the parent must be a Control")
		return
	var up := _target.get_parent()
	while up is Container:
		if up is MarginContainer:
			_margins.append(up)
		up = up.get_parent()
	_root = up as Control
	if _root == null:
		push_error("ContentWidth: no Control holds the containers of %s" % _target.name)
		return
	_target.size_flags_horizontal = Control.SIZE_SHRINK_CENTER
	_root.resized.connect(_fit)
	for m in _margins:
		m.resized.connect(_fit)
	_fit()


func _fit() -> void:
	var room := _root.size.x
	for m in _margins:
		room -= m.get_theme_constant(&"margin_left") + m.get_theme_constant(&"margin_right")
	var w := floorf(minf(max_width, maxf(room, 0.0)))
	if not is_equal_approx(_target.custom_minimum_size.x, w):
		_target.custom_minimum_size.x = w
