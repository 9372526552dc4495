class_name HistoryPanel
extends PanelContainer
## The play history sidebar: the last few rounds (Settings history_rounds, 3–5) of the deal: a
## "Round 4" heading, then a row per turn — the seat's portrait and name, and its play as small
## cards (wilds in their gold frame, as in the hand) or a "不出" stamp for a pass (HistoryRow).
## A round runs from a lead until the table clears. The newest row is always scrolled into view.
## Tribute and return lines come first, as notes. Collapsible (Settings history_open). Rows are
## reused as the history changes (one HistoryRow per line shown, none rebuilt for a redraw).


## A turn (a play, or a pass when `play` is null) or a note (`seat` -1, its `note`).
class Entry:
	var seat := -1
	var play: Play
	var note := ""

	func _init(at_seat: int, what: Play, text := "") -> void:
		seat = at_seat
		play = what
		note = text


## A round's turns; number 0 holds the notes before the first round.
class Round:
	var number := 0
	var entries: Array[Entry] = []

	func _init(n: int) -> void:
		number = n


var _rounds: Array[Round] = []
## The faces the rows show for each seat (SeatAvatar.face_key, and whether an AI plays it): the
## table copies its seats' (set_face); by default each seat's own.
var _face_keys: Array[int] = [3, 10, 17, 24]
var _ai: Array[bool] = [false, false, false, false]
@onready var _box: VBoxContainer = %Lines
@onready var _title: Label = %Title
var _number := 0
@onready var _scroll: ScrollContainer = %Scroll
## Who reads the lines: seat 0 is "You" only to the player sitting there (Wording.seat_name).
var local_seat := 0:
	set(v):
		local_seat = v
		if is_node_ready():
			_render()
## The deal's level (which cards are wild): a play with a wild shows what the wild stands for.
var level := 2
var spectator := false:
	set(v):
		spectator = v
		if is_node_ready():
			_render()


## A history panel built from history_panel.tscn (for code that places it itself).
static func create() -> HistoryPanel:
	return load("res://table/history_panel.tscn").instantiate()


func _ready() -> void:
	# New lines grow the scroll range: follow them to the bottom, with whole lines at the top.
	var bar := _scroll.get_v_scroll_bar()
	bar.changed.connect(_follow_bottom)
	# The lines wrap to the box's width: when it changes (the panel shown at its size, the
	# sidebar's width, the scroll bar coming or going) their heights change under the room kept
	# below the newest line, which holds the scroll range as it was, so no `changed` comes (issue
	# 38: a blank history with a scroll bar, the lines above the view). Follow each new fit too.
	_box.sort_children.connect(_follow_bottom)
	Settings.changed.connect(_on_settings_changed)
	_render()


func clear() -> void:
	_rounds.clear()
	_number = 0
	_render()


## A new round starts (first lead of a deal, or after the table cleared).
func new_round() -> void:
	if not _rounds.is_empty() and _rounds[-1].entries.is_empty():
		return
	_number += 1
	_rounds.append(Round.new(_number))
	var keep: int = Settings.get_value(&"history_rounds")
	while _rounds.size() > keep:
		_rounds.pop_front()
	_render()


## seat played `play`, or passed when play is null.
func add(seat: int, play: Play) -> void:
	if _rounds.is_empty() or _rounds[-1].number == 0:
		new_round()
	_rounds[-1].entries.append(Entry.new(seat, play))
	_render()


## A line that is not a play (a tribute or a return), kept before the first round.
func add_note(text: String) -> void:
	if _rounds.is_empty() or _rounds[-1].number != 0:
		_rounds.append(Round.new(0))
	_rounds[-1].entries.append(Entry.new(-1, null, text))
	_render()


## The text of every kept round, oldest first (tests read it).
func lines() -> PackedStringArray:
	var out := PackedStringArray()
	for r in _rounds:
		var parts := PackedStringArray()
		for e in r.entries:
			parts.append(_entry_text(e))
		var head := tr("HISTORY_ROUND").format({n = r.number}) + " — " if r.number > 0 else ""
		out.append(head + " · ".join(parts))
	return out


## An entry's line (the text a screen reader or a test reads).
func _entry_text(e: Entry) -> String:
	if e.seat < 0:
		return e.note
	var what := tr("HISTORY_PASS") if e.play == null else PlayText.describe(e.play)
	# A wild standing for another card: the cards as read ("Full house A = A A A(♥4 wild) 3 3").
	var cards := "" if e.play == null else PlayText.wild_cards_text(e.play, level)
	if cards != "":
		what = tr("HISTORY_WILD_PLAY_FMT").format({play = what, cards = cards})
	return "%s: %s" % [Wording.seat_name(e.seat, local_seat, spectator), what]


## The seat's face in the rows: `face_key` and whether an AI plays it (the table's seats').
func set_face(seat: int, face_key: int, ai: bool) -> void:
	if _face_keys[seat] != face_key or _ai[seat] != ai:
		_face_keys[seat] = face_key
		_ai[seat] = ai
		_render()


## The turn rows shown (a play or a pass each; headings and notes not counted), oldest first.
func turn_rows() -> Array[HistoryRow]:
	var out: Array[HistoryRow] = []
	if _box == null:
		return out
	for c in _box.get_children():
		var row := c as HistoryRow
		if row.kind == HistoryRow.Kind.PLAY or row.kind == HistoryRow.Kind.PASS:
			out.append(row)
	return out


func _render() -> void:
	if _box == null:  # @onready: lines added before the panel is ready show from _ready
		return
	var n := 0
	for r in _rounds:
		if r.number > 0:
			_row(n).set_text_row(tr("HISTORY_ROUND").format({n = r.number}), true)
			n += 1
		for e in r.entries:
			if e.seat < 0:
				_row(n).set_text_row(e.note, false)
			else:
				_row(n).set_turn(e.seat, _face_keys[e.seat], _ai[e.seat], Wording.seat_name(e.seat, local_seat, spectator),
					e.play, level)
			n += 1
	while _box.get_child_count() > n:
		_box.get_child(_box.get_child_count() - 1).free()  # rows: nothing refers to them
	# Fewer lines (a new round dropped the oldest) may leave the scroll range as it was (the
	# room kept below the newest line holds it), so no `changed` comes: follow here too.
	_follow_bottom.call_deferred()


## The `i`th row, made when there are fewer (reused otherwise).
func _row(i: int) -> HistoryRow:
	if i < _box.get_child_count():
		return _box.get_child(i) as HistoryRow
	var row := HistoryRow.new()
	_box.add_child(row)
	return row


## Scrolls to the newest line so that the top line is whole too (issue 24: the history's top
## line was cut under its title): when the lines overflow, a little room below the newest one
## makes the scroll end exactly where a line begins.
func _follow_bottom() -> void:
	var view_h := _scroll.size.y
	var sep := float(_box.get_theme_constant(&"separation"))
	var natural := 0.0
	var tops: Array[float] = []
	for c in _box.get_children():
		var l := c as Control
		if not l.visible:
			continue
		tops.append(natural)
		natural += l.get_combined_minimum_size().y + sep
	natural = maxf(natural - sep, 0.0)
	var want := 0.0
	if natural > view_h + 0.5:
		var start := natural - view_h
		for top in tops:
			if top >= start - 0.5:
				want = natural + (top - start)
				break
	if absf(_box.custom_minimum_size.y - want) > 0.5:
		_box.custom_minimum_size.y = want  # changes the range again: this runs once more
		return
	_scroll.scroll_vertical = int(ceilf(_scroll.get_v_scroll_bar().max_value))


## Whether the newest line is scrolled into view (tests).
func newest_in_view() -> bool:
	if _box == null or _box.get_child_count() == 0:
		return true
	var last := _box.get_child(_box.get_child_count() - 1) as Control
	var view := _scroll.get_global_rect().grow(1.0)
	return view.encloses(last.get_global_rect())


## Whether every line in view is whole: none cut at the top or the bottom (tests).
func lines_whole() -> bool:
	if _box == null:
		return true
	var view := _scroll.get_global_rect().grow(1.0)
	for c in _box.get_children():
		var r := (c as Control).get_global_rect()
		if view.intersects(r) and not view.encloses(r):
			return false
	return true


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		_render()


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"history_rounds":
		var keep: int = Settings.get_value(&"history_rounds")
		while _rounds.size() > keep:
			_rounds.pop_front()
		_render()
