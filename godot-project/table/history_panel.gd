class_name HistoryPanel
extends PanelContainer
## The play history sidebar: the last few rounds (Settings history_rounds, 3–5) of the deal in
## compact text — "Round 4 — West: Pair K · North: pass · …". A round runs from a lead until the
## table clears. Collapsible (Settings history_open).

var _rounds: Array[Dictionary] = []  # {number: int, entries: Array[[seat, text]]}
var _box: VBoxContainer
var _title: Label
var _number := 0


func _ready() -> void:
	name = "History"
	mouse_filter = Control.MOUSE_FILTER_STOP
	var col := VBoxContainer.new()
	col.add_theme_constant_override(&"separation", 6)
	add_child(col)
	_title = UiKit.label("HISTORY_TITLE", 20, Color(0.98, 0.85, 0.45))
	col.add_child(_title)
	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	col.add_child(scroll)
	_box = VBoxContainer.new()
	_box.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_box.add_theme_constant_override(&"separation", 8)
	scroll.add_child(_box)
	Settings.changed.connect(_on_settings_changed)


func clear() -> void:
	_rounds.clear()
	_number = 0
	_render()


## A new round starts (first lead of a deal, or after the table cleared).
func new_round() -> void:
	if not _rounds.is_empty() and _rounds[-1].entries.is_empty():
		return
	_number += 1
	_rounds.append({number = _number, entries = []})
	var keep: int = Settings.get_value(&"history_rounds")
	while _rounds.size() > keep:
		_rounds.pop_front()
	_render()


## seat played `play` (a play dictionary), or passed when play is empty.
func add(seat: int, play: Dictionary) -> void:
	if _rounds.is_empty():
		new_round()
	_rounds[-1].entries.append([seat, play])
	_render()


## The text of every kept round, oldest first (tests read it).
func lines() -> PackedStringArray:
	var out := PackedStringArray()
	for r in _rounds:
		var parts := PackedStringArray()
		for e: Array in r.entries:
			var what := tr("HISTORY_PASS") if e[1].is_empty() else PlayText.describe(e[1])
			parts.append("%s: %s" % [tr("SEAT_%d" % e[0]), what])
		out.append(tr("HISTORY_ROUND").format({n = r.number}) + " — " + " · ".join(parts))
	return out


func _render() -> void:
	if _box == null:
		return
	var texts := lines()
	while _box.get_child_count() > texts.size():
		var c := _box.get_child(_box.get_child_count() - 1)
		_box.remove_child(c)
		c.queue_free()
	while _box.get_child_count() < texts.size():
		var l := Label.new()
		l.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		l.add_theme_font_size_override(&"font_size", 16)
		l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		_box.add_child(l)
	for i in texts.size():
		(_box.get_child(i) as Label).text = texts[i]


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		_render()


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"history_rounds":
		var keep: int = Settings.get_value(&"history_rounds")
		while _rounds.size() > keep:
			_rounds.pop_front()
		_render()
