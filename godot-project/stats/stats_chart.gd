class_name StatsChart
extends Control
## A small chart drawn with `draw_*`: a line of values 0..1 over time (`show_line`, guides at
## 0 %, 50 % and 100 %), a line of plain numbers such as a rating (`show_numbers`, guides at its
## low, middle and high value) or labelled bars 0..1 (`show_bars`). Values come from the
## statistics or the server (Rust); this node only draws them. With nothing to draw it draws no
## bare axes but says so (`empty_text`, a translation key, in its child label "Empty").

const LINE := Color(0.98, 0.85, 0.45)
const BAR := Color(0.45, 0.8, 0.6)
const GUIDE := Color(1, 1, 1, 0.18)
const TEXT := Color(0.9, 0.95, 0.9)

var kind := &"line"
## Line: the values in order. Bars: one value per label.
var values := PackedFloat32Array()
var labels := PackedStringArray()
## Bars: a note under each bar (e.g. the number of matches).
var notes := PackedStringArray()
## The values at the bottom and top guides; `percent` labels the guides as percentages.
var low := 0.0
var high := 1.0
var percent := true
## What the chart says while it has no values (a translation key: the label translates it).
var empty_text := "CHART_EMPTY":
	set(key):
		empty_text = key
		_empty.text = key

var _empty := Label.new()


func _init() -> void:
	custom_minimum_size = Vector2(320, 180)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_empty.name = "Empty"
	_empty.text = empty_text
	_empty.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_empty.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	_empty.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_empty.add_theme_color_override(&"font_color", Color(TEXT, 0.75))
	_empty.add_theme_font_size_override(&"font_size", 18)
	_empty.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	add_child(_empty)


## Whether the chart has nothing to draw (its "no data" text is shown instead).
func is_empty() -> bool:
	return values.is_empty()


func show_line(points: PackedFloat32Array) -> void:
	kind = &"line"
	values = points
	low = 0.0
	high = 1.0
	percent = true
	_empty.visible = values.is_empty()
	queue_redraw()


## A line of numbers (e.g. a rating after each match): the guides span the values with a margin,
## at least `min_span` wide so that small changes do not look like cliffs.
func show_numbers(points: PackedFloat32Array, min_span := 40.0) -> void:
	kind = &"line"
	values = points
	percent = false
	var lo := INF
	var hi := -INF
	for v in points:
		lo = minf(lo, v)
		hi = maxf(hi, v)
	if points.is_empty():
		lo = 0.0
		hi = 0.0
	var pad := maxf((min_span - (hi - lo)) / 2.0, (hi - lo) * 0.1)
	low = floorf(lo - pad)
	high = ceilf(hi + pad)
	_empty.visible = values.is_empty()
	queue_redraw()


func show_bars(bar_labels: PackedStringArray, bar_values: PackedFloat32Array, bar_notes: PackedStringArray) -> void:
	kind = &"bars"
	labels = bar_labels
	values = bar_values
	notes = bar_notes
	_empty.visible = values.is_empty()
	queue_redraw()


func _draw() -> void:
	var font := get_theme_default_font()
	var fs := 14
	var left := 44.0
	var top := 8.0
	var bottom := 40.0 if kind == &"bars" else 10.0
	if values.is_empty():
		return  # no bare axes: the Empty label says why
	var plot := Rect2(left, top, maxf(size.x - left - 8.0, 10.0), maxf(size.y - top - bottom, 10.0))
	for f: float in [0.0, 0.5, 1.0]:
		var y := plot.end.y - plot.size.y * f
		draw_line(Vector2(plot.position.x, y), Vector2(plot.end.x, y), GUIDE, 1.0)
		var guide := "%d%%" % int(f * 100) if percent else str(roundi(low + (high - low) * f))
		draw_string(font, Vector2(2, y + 5), guide, HORIZONTAL_ALIGNMENT_LEFT, left - 4, fs, TEXT)
	if kind == &"line":
		var pts := PackedVector2Array()
		var n := values.size()
		for i in n:
			var x := plot.position.x + (plot.size.x * (float(i) / float(n - 1)) if n > 1 else plot.size.x / 2.0)
			pts.append(Vector2(x, plot.end.y - plot.size.y * clampf((values[i] - low) / (high - low), 0.0, 1.0)))
		if pts.size() > 1:
			draw_polyline(pts, LINE, 2.5, true)
		for p in pts:
			draw_circle(p, 3.5, LINE)
		return
	var count := values.size()
	var slot := plot.size.x / count
	var w := minf(slot * 0.6, 70.0)
	for i in count:
		var v := clampf(values[i], 0.0, 1.0)
		var x := plot.position.x + slot * i + (slot - w) / 2.0
		var h := plot.size.y * v
		draw_rect(Rect2(x, plot.end.y - h, w, h), BAR)
		draw_string(font, Vector2(x - 10, plot.end.y - h - 4), "%d%%" % roundi(v * 100), HORIZONTAL_ALIGNMENT_CENTER, w + 20, fs, TEXT)
		if i < labels.size():
			draw_string(font, Vector2(plot.position.x + slot * i, plot.end.y + 16), labels[i], HORIZONTAL_ALIGNMENT_CENTER, slot, fs, TEXT)
		if i < notes.size():
			draw_string(font, Vector2(plot.position.x + slot * i, plot.end.y + 33), notes[i], HORIZONTAL_ALIGNMENT_CENTER, slot, fs - 2, Color(TEXT, 0.7))
