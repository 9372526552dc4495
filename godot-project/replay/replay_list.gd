extends Control
## The saved matches (user://records/*.jsonl, through the RecordLibrary), newest first, each
## with when it was played, its mode, result, deals and levels (from the statistics summaries),
## Watch and Delete (which asks first: a deleted replay cannot come back). The page is
## replay_list.tscn; the rows are built here from the records.

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
	var summaries := summaries_by_record()
	for record in names:
		var row := UiKit.hbox(12)
		row.name = record
		var label := UiKit.label(describe(record, summaries.get(record, {})), 20)
		label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		label.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		row.add_child(label)
		var watch := UiKit.button("BTN_WATCH", EventBus.replay_requested.emit.bind(record), 20, Vector2(130, 46))
		watch.name = "Watch"
		row.add_child(watch)
		var delete := UiKit.button("BTN_DELETE", _delete.bind(record), 20, Vector2(130, 46))
		delete.name = "Delete"
		row.add_child(delete)
		_list.add_child(row)


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


## Record name -> its statistics summary ({mode, deals, outcome, team_levels, players…}).
static func summaries_by_record() -> Dictionary:
	var data := RecordLibrary.stats()
	var matches: Array = data.get("stats", {}).get("matches", [])
	var records: Array = data.get("records", [])
	var out := {}
	for i in mini(matches.size(), records.size()):
		out[String(records[i])] = matches[i]
	return out


## "2026-11-30 05:20 · Training · Won · 4 deals · Us 7 · Them 5" (what is known of the record).
static func describe(record: String, summary: Dictionary) -> String:
	var parts := PackedStringArray([_describe(record)])
	if summary.is_empty():
		return parts[0]
	var mode := String(summary.get("mode", ""))
	if mode != "":
		var key := "MODE_" + mode.to_upper()
		var shown := TranslationServer.translate(key)
		parts.append(shown if shown != key else mode)
	var seat := Array(summary.get("players", [])).find(RecordLibrary.LOCAL_PLAYER)
	var outcome: Variant = summary.get("outcome")
	if outcome is Dictionary:
		if seat >= 0:  # a match of four AIs has no "won" for the viewer
			var won: bool = outcome.get("result") == "decisive" and int(outcome.get("team", -1)) == seat % 2
			parts.append(TranslationServer.translate("STATS_WON" if won else "STATS_LOST"))
	else:
		parts.append(TranslationServer.translate("STATS_UNFINISHED"))
	parts.append(UiKit.count_text("STATS_DEALS_FMT", int(summary.get("deals", 0))))
	var levels: Array = summary.get("team_levels", [])
	if levels.size() == 2:
		# Team 0 is the player's when they sat at seat 0 or 2 (always, at this table).
		parts.append(TranslationServer.translate("LEVELS_FMT").format({us = Cards.rank_label(int(levels[0])),
			them = Cards.rank_label(int(levels[1]))}))
	return " · ".join(parts)
