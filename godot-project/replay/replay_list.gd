extends Control
## The saved matches (user://records/*.jsonl, through the MatchController), newest first, each
## with Watch and Delete. The page is replay_list.tscn; the rows are built here from the records.

@onready var _list: VBoxContainer = %List
@onready var _empty: Label = %Empty


func _ready() -> void:
	var back: Button = %Back
	back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	refresh()
	back.grab_focus.call_deferred()


func refresh() -> void:
	for c in _list.get_children():
		_list.remove_child(c)
		c.queue_free()
	var names := MatchController.list_records()
	_empty.visible = names.is_empty()
	for record in names:
		var row := UiKit.hbox(12)
		row.name = record
		var label := UiKit.label(_describe(record), 20)
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
	MatchController.delete_record(record)
	refresh()
