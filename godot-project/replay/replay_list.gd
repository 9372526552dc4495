extends Control
## The saved matches (user://records/*.jsonl, through the RecordLibrary), newest first, each a
## card with its result on a coloured badge, the four players' portraits, when it was played, its
## mode, result, deals and levels (from the statistics summaries), Watch and Delete (which asks
## first: a deleted replay cannot come back). No match yet: a picture and a line. The page is
## replay_list.tscn; the rows are built here from the records.

## The result badge of a row: its words and colour (jade us, crimson them, as on the plaque).
const RESULT_KEYS := {won = "STATS_WON", lost = "STATS_LOST", unfinished = "STATS_UNFINISHED", watched = "REPLAY_AI_MATCH"}
const RESULT_COLORS := {won = Color(0.231, 0.71, 0.541), lost = Color(0.851, 0.282, 0.353),
	unfinished = Color(0.75, 0.75, 0.7), watched = Color(0.6, 0.75, 0.95)}

@onready var _list: VBoxContainer = %List
@onready var _empty: Label = %Empty
var _modal: Modal


func _ready() -> void:
	var back: Button = %Back
	back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	_modal = Modal.create()
	add_child(_modal)
	refresh()
	back.grab_focus.call_deferred()


func refresh() -> void:
	for c in _list.get_children():
		_list.remove_child(c)
		c.queue_free()
	var names := RecordLibrary.list_records()
	_empty.visible = names.is_empty()
	(%Scroll as Control).visible = not names.is_empty()
	var summaries := summaries_by_record()
	for record in names:
		_list.add_child(_row(record, summaries.get(record) as RecordSummary))


## One saved match as a card: its result on a coloured badge, the four players' portraits (you,
## partner, opponents; robots for AI seats), when and what, and Watch / Delete.
func _row(record: String, summary: RecordSummary) -> Control:
	var card := PanelContainer.new()
	card.name = record
	var result := result_of(summary)
	var accent: Color = RESULT_COLORS[result]
	var panel := StyleBoxFlat.new()
	panel.bg_color = Color(0.04, 0.1, 0.07, 0.72)
	panel.border_color = accent
	panel.border_width_left = 6
	panel.set_corner_radius_all(10)
	panel.set_content_margin_all(10)
	panel.content_margin_left = 16
	card.add_theme_stylebox_override(&"panel", panel)
	var row := UiKit.hbox(14)
	card.add_child(row)
	var badge := UiKit.label(RESULT_KEYS[result], 20, accent)
	badge.name = "Result"
	badge.custom_minimum_size = Vector2(130, 0)
	badge.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	badge.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	row.add_child(badge)
	var faces := UiKit.hbox(4)
	faces.name = "Portraits"
	var players := summary.players if summary != null else PackedStringArray()
	for seat in 4:
		var who := String(players[seat]) if seat < players.size() else ""
		var face := SeatAvatar.new()
		face.fixed_size = Vector2(40, 40)
		face.seat = seat
		face.face_key = hash(who) if who != "" else seat
		face.ai = who.begins_with("AI ") or who == ""
		face.tooltip_text = who
		faces.add_child(face)
	row.add_child(faces)
	var text := UiKit.vbox(2)
	text.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	var when := UiKit.label(_describe(record), 22, Color(0.98, 0.85, 0.45))
	when.name = "When"
	when.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	text.add_child(when)
	# The when is the card's title: the line under it says the rest.
	var label := UiKit.label(describe(record, summary).trim_prefix(_describe(record) + " · "), 18, Color(0.85, 0.88, 0.85))
	label.name = "Summary"
	label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	text.add_child(label)
	row.add_child(text)
	var watch := UiKit.button("BTN_WATCH", EventBus.replay_requested.emit.bind(record), 20, Vector2(130, 46))
	watch.name = "Watch"
	watch.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	row.add_child(watch)
	var delete := UiKit.button("BTN_DELETE", _delete.bind(record), 20, Vector2(130, 46))
	delete.name = "Delete"
	delete.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	row.add_child(delete)
	return card


## &"won", &"lost", &"unfinished" or &"watched" (four AIs: nobody's win) for a summary.
static func result_of(summary: RecordSummary) -> StringName:
	if summary == null or not summary.finished:
		return &"unfinished"
	var seat := Array(summary.players).find(RecordLibrary.LOCAL_PLAYER)
	if seat < 0:
		return &"watched"
	return &"won" if summary.winner_team == seat % 2 else &"lost"


## "2026-11-30 05:20" from "match_2026-11-30_05-20-11_12345"; other names as they are.
static func _describe(record: String) -> String:
	var parts := record.split("_")
	if parts.size() >= 3 and parts[0] == "match":
		var time := parts[2].replace("-", ":")
		return "%s %s" % [parts[1], time.substr(0, 5)]
	return record


func _delete(record: String) -> void:
	if _modal.is_open():
		return
	var sure: bool = await _modal.confirm(tr("CONFIRM_DELETE_TITLE"), tr("CONFIRM_DELETE_TEXT"), "BTN_DELETE")
	if sure and is_inside_tree():
		RecordLibrary.delete_record(record)
		refresh()


## Record name -> its statistics summary.
static func summaries_by_record() -> Dictionary[String, RecordSummary]:
	var out: Dictionary[String, RecordSummary] = {}
	for m: RecordSummary in RecordLibrary.stats().matches:
		out[m.record] = m
	return out


## "2026-11-30 05:20 · Training · Won · 4 deals · Us 7 · Them 5" (what is known of the record).
static func describe(record: String, summary: RecordSummary) -> String:
	var parts := PackedStringArray([_describe(record)])
	if summary == null:
		return parts[0]
	var mode := summary.mode
	if mode != "":
		var key := "MODE_" + mode.to_upper()
		var shown := TranslationServer.translate(key)
		parts.append(shown if shown != key else mode)
	var seat := Array(summary.players).find(RecordLibrary.LOCAL_PLAYER)
	if summary.finished:
		if seat >= 0:  # a match of four AIs has no "won" for the viewer
			var won: bool = summary.winner_team == seat % 2
			parts.append(TranslationServer.translate("STATS_WON" if won else "STATS_LOST"))
	else:
		parts.append(TranslationServer.translate("STATS_UNFINISHED"))
	parts.append(UiKit.count_text("STATS_DEALS_FMT", summary.deals))
	var levels := summary.team_levels
	if levels.size() == 2:
		# Team 0 is the player's when they sat at seat 0 or 2 (always, at this table).
		parts.append(TranslationServer.translate("LEVELS_FMT").format({us = Cards.rank_label(int(levels[0])),
			them = Cards.rank_label(int(levels[1]))}))
	return " · ".join(parts)
