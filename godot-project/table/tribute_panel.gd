class_name TributePanel
extends PanelContainer
## The tribute / return / resist lines of a deal, in two columns (tribute on the left, return on
## the right) in the centre of the side row, which stays empty until the first play; the table
## clears the panel when that play comes (the lines are kept in the history).

const MAX_FONT := 18
const MIN_FONT := 12

@onready var _columns: BoxContainer = %Columns
@onready var _tribute: VBoxContainer = %TributeLines
@onready var _return: VBoxContainer = %ReturnLines
## The box the panel must stay inside (set by TableLayout.fit).
var _box := Rect2()


## Adds a line to the tribute column (or the return column with `is_return`); returns it.
func add_line(text: String, is_return := false) -> Label:
	var l := UiKit.label(text, MAX_FONT)
	l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	(_return if is_return else _tribute).add_child(l)
	_return.visible = _return.get_child_count() > 0
	visible = true
	_refit()
	return l


## Changes a line's text (one `add_line` returned), fitting the panel again.
func set_line_text(line: Label, text: String) -> void:
	line.text = text
	_refit()


## Keeps the panel inside `box` (global to the frame), centred, shrinking its font to fit.
func fit(box: Rect2) -> void:
	_box = box
	_refit()


func _refit() -> void:
	if _box.size.x < 1.0:
		return
	# Side by side first, then stacked; each from the largest font down to the smallest. Measured
	# untrimmed: a label that may trim its text asks for almost no width, and the panel would
	# shrink to an empty dark box (issue 24).
	for col in [_tribute, _return]:
		for l: Label in col.get_children():
			l.clip_text = false
			l.text_overrun_behavior = TextServer.OVERRUN_NO_TRIMMING
			l.custom_minimum_size.x = 0.0
	for stacked in [false, true]:
		_columns.vertical = stacked
		_columns.add_theme_constant_override(&"separation", 0 if stacked else 18)
		# Never below the phone's text floor (PhoneProfile): there the lines stack or trim instead.
		var least := maxi(MIN_FONT, UiLayout.text_floor(get_viewport_rect().size))
		var fs := maxi(MAX_FONT, least)
		while true:
			for col in [_tribute, _return]:
				for l: Label in col.get_children():
					l.add_theme_font_size_override(&"font_size", fs)
					l.update_minimum_size()  # measured now, not from a size cached before the change
			var want := get_combined_minimum_size()
			if want.x <= _box.size.x and want.y <= _box.size.y:
				_place(want)
				return
			if fs <= least:
				break
			fs -= 1
	# Last resort: the lines are cut with an ellipsis to the box's width (a label's minimum size
	# would otherwise keep the panel wider than its box).
	var want := get_combined_minimum_size()
	for col in [_tribute, _return]:
		for l: Label in col.get_children():
			l.clip_text = true
			l.text_overrun_behavior = TextServer.OVERRUN_TRIM_ELLIPSIS
	# The whole width of the box: the lines keep as much of their text as fits.
	_place(Vector2(_box.size.x, minf(want.y, _box.size.y)))


func _place(want: Vector2) -> void:
	size = want.min(_box.size)
	position = _box.get_center() - size / 2.0


## The texts of the lines shown (tribute column first).
func lines() -> PackedStringArray:
	var out := PackedStringArray()
	for col in [_tribute, _return]:
		for l: Label in col.get_children():
			if not l.is_queued_for_deletion():
				out.append(l.text)
	return out


func clear() -> void:
	for col in [_tribute, _return]:
		for c in col.get_children():
			c.free()  # plain labels: nothing refers to them (no orphan waits for the frame's end)
	visible = false
