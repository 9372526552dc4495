class_name TableReview
extends Node
## The review (复盘) on the table: after a deal (offline matches) L3 values the player's decisions
## of that deal; at the match's end, of the whole match (online: the record the session kept,
## `OnlineRecords`, reviewed once and kept beside it). On a worker thread, shown in a ReviewPanel
## over the table while the deal-end card or the end screen waits behind it. A node of the table
## while the panel is open; it keeps the panel fitted to the window.

## Worlds a set for the table's review (0: the review's default; tests use fewer).
static var worlds := 0

var panel: ReviewPanel
var _table: Table


## Connects the table's Review buttons (the deal-end card's and the end screen's).
static func wire(table: Table) -> void:
	table.review_requested_deal.connect(func(deal_no: int) -> void: open(table, deal_no))
	table.review_requested.connect(func() -> void: open(table, -1))


## Opens the review of deal `deal_no` (0 = the first; -1: the whole match) of `table`'s match for
## the player's seat; null when there is nothing to review (a spectator, no match, a deal of an
## online match: the server keeps online records, reviewed whole at the match's end). A review
## already open on the table is closed first.
static func open(table: Table, deal_no: int) -> TableReview:
	var old: Node = table.get_node_or_null(^"TableReview")
	if old != null:
		old.free()
	if table.spectator or table.config == null or (table.config.online and deal_no >= 0):
		return null
	var text := ""
	if not table.config.online:
		text = table.controller.record.text()
		if text == "":
			return null
	var review := TableReview.new()
	review.name = "TableReview"
	review._table = table
	table.add_child(review)
	review._make_panel()
	if table.config.online:
		review._open_online()
	else:
		review.panel.start(text, table.local_seat, deal_no)
	return review


func _make_panel() -> void:
	panel = ReviewPanel.new()
	# Above the cards, the plays' word-art and the deal-end panel.
	panel.z_index = 1100
	panel.can_jump = false
	panel.closed.connect(queue_free)
	_table.frame.add_child(panel)
	if worlds > 0:
		panel.review.worlds = worlds
	_fit()
	_table.frame.resized.connect(_fit)


## Online: the match's record once the session has kept it (it is downloaded when the server
## says the match is stored: usually before the end screen; else the panel waits for it).
func _open_online() -> void:
	var records: OnlineRecords = Online.records
	if records.last_kept != "" and records.last_seat == _table.local_seat:
		panel.start_saved(records.last_kept, _table.local_seat)
		return
	panel.wait_for_record()
	records.kept.connect(func(record: String, seat: int) -> void:
		if is_instance_valid(panel):
			panel.start_saved(record, seat), CONNECT_ONE_SHOT)
	records.failed.connect(func(message: String) -> void:
		if is_instance_valid(panel):
			panel.show_failure(message), CONNECT_ONE_SHOT)


func _exit_tree() -> void:
	if is_instance_valid(panel):
		panel.queue_free()


## The panel over the table's middle: from under the top bar to above the action bar, at most a
## readable width.
func _fit() -> void:
	if not is_instance_valid(panel):
		return
	var s: Vector2 = _table.frame.size
	var w := clampf(s.x * 0.5, minf(380.0, s.x - 16.0), minf(820.0, s.x - 16.0))
	var top := 8.0 + _table.top_bar.get_global_rect().end.y - _table.frame.get_global_rect().position.y
	var bar_y := _table.action_bar.get_global_rect().position.y - _table.frame.get_global_rect().position.y
	var bottom := clampf(bar_y - 8.0, top + 160.0, s.y - 8.0)
	panel.fit(Rect2((s.x - w) * 0.5, top, w, bottom - top))
