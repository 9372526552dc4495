extends Control
## The player's statistics (spec: statistics system): headline figures, the match win rate over
## time and by AI level as charts, and the recent matches, each opening its replay. Every figure
## is computed in Rust (guandan_core::stats, the same as `guandan stats`) from the saved records
## and read through the RecordLibrary; this script fills stats_screen.tscn (the layout). Export copies the
## statistics file (JSON) to the documents folder.

## Keys of the headline figures (`figures()`); each has a value Label of that name in the scene.
const HEADLINES: Array[StringName] = [&"matches", &"match_win_rate", &"deals", &"deal_win_rate",
	&"double_down_rate", &"double_downed_rate", &"mean_think", &"bomb_rate", &"wilds_used",
	&"tribute_deal_win_rate", &"levels_climbed"]
## Opposition keys of the statistics, in the order the bars show them.
const OPPOSITION := [["vs L1", "AI_EASY"], ["vs L2", "AI_NORMAL"], ["vs L3", "AI_HARD"], ["vs mixed", "STATS_VS_MIXED"], ["vs humans", "STATS_VS_HUMANS"]]
const RECENT := 8
## One line of the recent matches (text + Watch).
const RECENT_ROW := preload("res://stats/recent_row.tscn")

## The statistics as read (RecordLibrary.stats()); null: none at all.
var data: PlayerStatistics = null

@onready var over_time: StatsChart = %OverTime
@onready var by_level: StatsChart = %ByLevel
@onready var _headlines: GridContainer = %Headlines
@onready var _recent: VBoxContainer = %Recent
@onready var _status: Label = %Status
@onready var _empty: Label = %Empty
@onready var _recent_empty: Label = %RecentEmpty


func _ready() -> void:
	var back: Button = %Back
	back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	%Export.pressed.connect(_export)
	%Rebuild.pressed.connect(refresh.bind(true))
	refresh()
	back.grab_focus.call_deferred()


## Reads the statistics again (`rebuild`: recomputed from every record) and shows them.
func refresh(rebuild := false) -> void:
	show_stats(RecordLibrary.stats(rebuild))


## Shows statistics as RecordLibrary.stats() gives them (null: none at all). With no data every
## part says so: the line at the top, each chart, the recent matches.
func show_stats(stats: PlayerStatistics) -> void:
	data = stats
	var me := player()
	var has := me != null and (me.record.matches > 0 or me.record.deals > 0)
	_empty.visible = not has
	var f := figures()
	for key in HEADLINES:
		(_headlines.get_node(NodePath(key)) as Label).text = f.get(key, "–")
	var results := match_results()
	# The win rate after each finished match: an unfinished one is neither won nor lost.
	var line := PackedFloat32Array()
	var won := 0
	var finished := 0
	for r: Dictionary in results:
		if r.finished:
			finished += 1
			won += 1 if r.won else 0
			line.append(float(won) / float(finished))
	over_time.show_line(line)
	var labels := PackedStringArray()
	var rates := PackedFloat32Array()
	var notes := PackedStringArray()
	for o: Array in OPPOSITION:
		var r: StatsRecord = me.against(o[0]) if me != null else null
		if r != null and r.matches > 0:
			labels.append(tr(o[1]))
			rates.append(float(r.matches_won) / float(r.matches))
			notes.append(UiKit.count_text("STATS_N_MATCHES_FMT", int(r.matches)))
	by_level.show_bars(labels, rates, notes)
	_fill_recent(results)
	var damaged := data.damaged.size() if data != null else 0
	var status := ""
	if damaged > 0:
		status = tr("STATS_DAMAGED_FMT").format({n = damaged})
	if data != null and data.origin == "repaired":
		status += (" " if status != "" else "") + tr("STATS_REPAIRED")
	_status.text = status


## The local player's figures (null when there are none).
func player() -> PlayerFigures:
	return RecordLibrary.local_figures(data)


## The headline figures as shown: key -> text.
func figures() -> Dictionary:
	var me := player()
	if me == null:
		return {}
	var rec := me.record
	var deals := rec.deals
	var pct := func(n: Variant, of: Variant) -> String:
		return "%d%%" % roundi(100.0 * float(n) / float(of)) if float(of) > 0 else "–"
	var timed := me.timed_decisions
	return {
		&"matches": str(rec.matches) if rec.unfinished == 0 else tr("STATS_MATCHES_UNFINISHED_FMT").format({
			n = rec.matches, u = rec.unfinished}),
		&"match_win_rate": pct.call(rec.matches_won, rec.matches),
		&"deals": str(deals),
		&"deal_win_rate": pct.call(rec.deals_won, deals),
		&"double_down_rate": pct.call(me.double_downs, deals),
		&"double_downed_rate": pct.call(me.double_downed, deals),
		&"mean_think": "%.1f s" % (float(me.think_ms_total) / timed / 1000.0) if timed > 0 else "–",
		&"bomb_rate": pct.call(me.bomb_plays, me.plays),
		&"wilds_used": str(me.wilds_used),
		&"tribute_deal_win_rate": pct.call(me.tribute_deals_won, me.tribute_deals),
		&"levels_climbed": str(me.levels_climbed),
	}


## The local player's matches, oldest first: [{record, won, finished, deals, seat}].
func match_results() -> Array:
	var out := []
	if data == null:
		return out
	for m: RecordSummary in data.matches:
		var seat := Array(m.players).find(RecordLibrary.LOCAL_PLAYER)
		if seat < 0:
			continue
		var won := m.finished and m.winner_team == seat % 2
		out.append({record = m.record, won = won, finished = m.finished, deals = m.deals, seat = seat})
	return out


func _fill_recent(results: Array) -> void:
	for c in _recent.get_children():
		_recent.remove_child(c)
		c.queue_free()
	var shown := 0
	for i in range(results.size() - 1, -1, -1):
		if shown >= RECENT:
			break
		shown += 1
		var r: Dictionary = results[i]
		var row: HBoxContainer = RECENT_ROW.instantiate()
		row.name = String(r.record)
		var result := tr("STATS_WON") if r.won else (tr("STATS_LOST") if r.finished else tr("STATS_UNFINISHED"))
		(row.get_node(^"%Text") as Label).text = "%s   %s   %s" % [_when(r.record), result, UiKit.count_text("STATS_DEALS_FMT", int(r.deals))]
		(row.get_node(^"%Watch") as Button).pressed.connect(EventBus.replay_requested.emit.bind(String(r.record)))
		_recent.add_child(row)
	_recent_empty.visible = shown == 0


## "2026-11-30 05:20" from "match_2026-11-30_05-20-11_12345"; other names as they are.
static func _when(record: String) -> String:
	var parts := record.split("_")
	if parts.size() >= 3 and parts[0] == "match":
		return "%s %s" % [parts[1], parts[2].replace("-", ":").substr(0, 5)]
	return record


func _export() -> void:
	var path := RecordLibrary.export_stats()
	_status.text = tr("STATS_EXPORTED_FMT").format({path = path}) if path != "" else tr("STATS_EXPORT_FAILED")
