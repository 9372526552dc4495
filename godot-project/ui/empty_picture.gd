@tool
class_name EmptyPicture
extends Control
## The picture over a screen's "nothing here yet" line (the line stays a Label of the screen's own):
##   &"replays"      a stack of face-down cards with a play mark on the top one;
##   &"leaderboard"  an empty podium, three steps with their places;
##   &"stats"        a chart's axes with a dotted line still to be drawn.
## Drawn in the table's palette (TableStyle), so it needs no file. With `line` set it shows exactly
## when that label shows (the screens already decide when they are empty).

@export_enum("replays", "leaderboard", "stats") var kind: String = "replays":
	set(v):
		kind = v
		queue_redraw()
## The label whose visibility this picture follows (empty: the screen shows and hides it).
@export var line: NodePath

var _style: TableStyle


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	if custom_minimum_size == Vector2.ZERO:
		custom_minimum_size = Vector2(220, 150)
	_style = TableStyle.current()
	var l := get_node_or_null(line) as CanvasItem
	if l != null:
		l.visibility_changed.connect(_follow.bind(l))
		_follow(l)


func _follow(l: CanvasItem) -> void:
	visible = l.visible


func _draw() -> void:
	if _style == null:
		return
	var box := Rect2(Vector2.ZERO, size)
	var s := minf(size.x / 1.5, size.y)
	var c := box.get_center()
	var ink := Color(_style.rim_light_color, 0.8)
	var line_w := maxf(2.0, s * 0.025)
	match kind:
		"leaderboard":
			var step := s * 0.3
			var heights := [0.55, 0.8, 0.4]  # 2nd, 1st, 3rd
			var places := ["2", "1", "3"]
			var font := get_theme_default_font()
			for i in 3:
				var h: float = s * float(heights[i])
				var r := Rect2(Vector2(c.x - step * 1.5 + step * i, c.y + s * 0.45 - h), Vector2(step * 0.94, h))
				draw_rect(r, Color(_style.rim_color, 0.75))
				draw_rect(r, ink, false, line_w)
				var fs := int(step * 0.45)
				draw_string(font, Vector2(r.position.x, r.position.y + fs * 1.2), places[i],
						HORIZONTAL_ALIGNMENT_CENTER, r.size.x, fs, ink)
		"stats":
			var o := Vector2(c.x - s * 0.6, c.y + s * 0.4)
			draw_line(o, o + Vector2(0, -s * 0.8), ink, line_w)
			draw_line(o, o + Vector2(s * 1.2, 0), ink, line_w)
			var k := 0
			var x := 0.08
			while x < 1.1:
				var p := o + Vector2(s * x, -s * (0.2 + 0.35 * x + 0.1 * sin(x * 9.0)))
				draw_circle(p, line_w * 0.9, Color(ink, 0.35 if k > 3 else 0.8))
				x += 0.09
				k += 1
		_:
			for i in 3:
				var r := Rect2(c + Vector2(-s * 0.28 + i * s * 0.07, -s * 0.42 + i * s * 0.05), Vector2(s * 0.5, s * 0.7))
				draw_rect(r, Color(_style.rim_color, 0.9))
				draw_rect(r.grow(-s * 0.04), Color(_style.rim_light_color, 0.35), false, line_w * 0.6)
				draw_rect(r, ink, false, line_w)
			var top := Rect2(c + Vector2(-s * 0.28 + 2 * s * 0.07, -s * 0.42 + 2 * s * 0.05), Vector2(s * 0.5, s * 0.7))
			var m := top.get_center()
			var t := s * 0.12
			draw_colored_polygon(PackedVector2Array([m + Vector2(-t * 0.7, -t), m + Vector2(t, 0), m + Vector2(-t * 0.7, t)]), ink)
