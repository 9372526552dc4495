class_name ReviewPanel
extends PanelContainer
## The deal review (复盘) over a replay: a progress bar while L3 values the player's decisions on
## a worker thread, then the match's summary, the chart of the team's outlook per decision
## (tapping a point jumps the replay there) and the marked decisions, each with the play made,
## the better play as cards and the reason in the hint's words.

## The replay should show the position before record action `action`.
signal jump(action: int)
signal closed

var review: ReplayReview
## Whether a tapped point or line can show its position (a replay's review; the table's cannot:
## its summary sends the player to Replays instead).
var can_jump := true
## The deal reviewed, -1 for the whole record.
var _deal := -1
var _title: Label
var _bar: ProgressBar
var _summary: Label
var _chart: ReviewChart
var _list: VBoxContainer
var _lines: Array[Label] = []
var _rect := Rect2()


func _init() -> void:
	name = "ReviewPanel"
	var style := StyleBoxFlat.new()
	style.bg_color = Color(0.03, 0.1, 0.07, 1.0)
	style.set_corner_radius_all(10)
	style.set_content_margin_all(14)
	add_theme_stylebox_override(&"panel", style)
	var box := VBoxContainer.new()
	box.add_theme_constant_override(&"separation", 8)
	add_child(box)
	var head := HBoxContainer.new()
	box.add_child(head)
	_title = UiKit.label("REVIEW_TITLE", 24)
	_title.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	head.add_child(_title)
	var close := Button.new()
	close.name = "Close"
	close.text = "REVIEW_CLOSE"
	close.custom_minimum_size = Vector2(0, 44)
	close.pressed.connect(func() -> void: closed.emit())
	head.add_child(close)
	_bar = ProgressBar.new()
	_bar.custom_minimum_size = Vector2(0, 24)
	box.add_child(_bar)
	_summary = UiKit.label("REVIEW_RUNNING", 18)
	_summary.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	box.add_child(_summary)
	_chart = ReviewChart.new()
	_chart.visible = false
	_chart.chosen.connect(func(action: int) -> void:
		if can_jump:
			jump.emit(action))
	box.add_child(_chart)
	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	box.add_child(scroll)
	_list = VBoxContainer.new()
	_list.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(_list)
	review = ReplayReview.new()
	review.name = "ReplayReview"
	add_child(review)
	review.progress.connect(_on_progress)
	review.finished.connect(_on_finished)
	review.failed.connect(_on_failed)
	minimum_size_changed.connect(func() -> void:
		if _rect.size != Vector2.ZERO:
			_apply_rect.call_deferred())


## Stands in `rect`. The wrapping summary gets the panel's inner width as its least width
## first: measured at a narrower width it would ask for a tall panel (issue 53's "why" panel).
func fit(rect: Rect2) -> void:
	_rect = rect
	_summary.custom_minimum_size = Vector2(maxf(rect.size.x - 28.0, 0.0), 0.0)
	_apply_rect()
	# Minimum sizes settle a frame later: set the size again then (a container never shrinks
	# itself back below a size it once had to take).
	_apply_rect.call_deferred()


func _apply_rect() -> void:
	position = _rect.position
	size = _rect.size


## Reviews `seat` of the record `text` (deal `deal` only when it is 0 or more: the table's
## review after a deal).
func start(text: String, seat: int, deal := -1) -> void:
	_deal = deal
	_running()
	review.start(text, seat, deal)


## Reviews `seat` of the saved record `name` (the review kept beside it is read back when it
## is the one asked for).
func start_saved(name: String, seat: int) -> void:
	_deal = -1
	_running()
	review.start_saved(name, seat)


func _running() -> void:
	_bar.visible = true
	_bar.value = 0
	_summary.text = tr("REVIEW_RUNNING")


## Online, before the match's record has been downloaded: says so; `start_saved` follows.
func wait_for_record() -> void:
	_bar.visible = true
	_bar.value = 0
	_summary.text = tr("REVIEW_WAITING_RECORD")


## Says why there is no review (e.g. the record could not be downloaded).
func show_failure(message: String) -> void:
	_on_failed(message)


## The chart (tests tap its points).
func chart() -> ReviewChart:
	return _chart


## The summary line as shown (tests read it).
func summary_text() -> String:
	return _summary.text


## The lines of the marked decisions shown (tests read them).
func lines() -> Array[Label]:
	return _lines


func _on_progress(done: int, total: int) -> void:
	_bar.max_value = maxi(total, 1)
	_bar.value = done


func _on_failed(message: String) -> void:
	_bar.visible = false
	_summary.text = tr("REVIEW_FAILED_FMT").format({message = message})


func _on_finished(s: ReviewSummary) -> void:
	_bar.visible = false
	var summary := "REVIEW_SUMMARY_FMT"
	if not can_jump:
		summary = "REVIEW_SUMMARY_DEAL_FMT" if _deal >= 0 else "REVIEW_SUMMARY_MATCH_FMT"
	_summary.text = tr(summary).format({decisions = s.decisions.size(), mistakes = s.mistakes, deal = _deal + 1,
		inaccuracies = s.inaccuracies, cost = "%.1f" % s.cost, worlds = s.worlds})
	var values := PackedFloat32Array()
	var marks := PackedInt32Array()
	var actions := PackedInt32Array()
	for d: ReviewedDecision in s.decisions:
		values.append(d.value_played)
		marks.append(d.mark)
		actions.append(d.action)
	_chart.visible = not s.decisions.is_empty()
	_chart.show_points(values, marks, actions)
	for i in s.decisions.size():
		var d: ReviewedDecision = s.decisions[i]
		if d.mark == 0:
			continue
		var line := UiKit.label("", 17, Color(1.0, 0.6, 0.55) if d.mark == 2 else Color(1.0, 0.85, 0.5))
		line.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		line.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		line.mouse_filter = Control.MOUSE_FILTER_STOP
		line.text = tr("REVIEW_LINE_FMT").format({deal = d.deal_no + 1, mark = tr("REVIEW_MISTAKE" if d.mark == 2 else "REVIEW_INACCURACY"),
			played = _cards(d.played, d.played_kind), best = _cards(d.best, d.best_kind), cost = cost_text(d.cost),
			reason = PlayText.reason(d.reason, Array(d.reason_args)), biggest = tr("REVIEW_BIGGEST") if i == s.biggest else ""})
		line.gui_input.connect(func(e: InputEvent) -> void:
			var mb := e as InputEventMouseButton
			if can_jump and mb != null and mb.pressed and mb.button_index == MOUSE_BUTTON_LEFT:
				jump.emit(d.action))
		_list.add_child(line)
		_lines.append(line)
	if _lines.is_empty():
		var none := UiKit.label("REVIEW_NONE", 17)
		none.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		_list.add_child(none)


## A decision's cost as its line shows it: the levels lost ("-0.8"), or, where that rounds to
## nothing, what the mark is about (L3 marks by its whole measure, which also weighs what a play
## keeps: a line read "(-0.0)" beside "the biggest").
static func cost_text(cost: float) -> String:
	if cost >= 0.05:
		return "-%.1f" % cost
	return TranslationServer.translate("REVIEW_KEEP_COST")


## Cards as text ("♠A ♥A"), or the pass.
func _cards(ids: PackedInt32Array, kind: String) -> String:
	if kind == "pass" or ids.is_empty():
		return tr("HINT_PASS")
	var parts: PackedStringArray = []
	# In rank order (a straight reads 2 3 4 5 6, not in the order the search listed them).
	for id in Cards.sorted(ids, 0):
		parts.append(PlayText.card_text(id))
	return " ".join(parts)
