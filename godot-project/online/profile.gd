extends Control
## Online → a player's public profile (`Online.profile_player`, "" = the player's own), asked
## through `GuandanClient.fetch_profile`: the rating under a rule preset with its course over the
## latest ranked matches (drawn like the Stats charts), and the server's figures over the
## player's latest stored matches — the same `guandan_core::stats` the Stats screen uses.

@onready var _title: Label = %Title
@onready var _rules: OptionButton = %Rules
@onready var _rating: Label = %Rating
@onready var _ranked: Label = %Ranked
@onready var _chart: StatsChart = %Chart
@onready var _figures_note: Label = %FiguresNote
@onready var _status: Label = %Status
@onready var _content: Control = %Content

## The server's answer ({} until it comes) and the rule presets it has ratings for, in the
## order of the Rules options.
var profile: PlayerProfile = null
var _presets: Array[String] = []


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"leaderboard"))
	_rules.item_selected.connect(func(i: int) -> void: _show_rating(_presets[i]))
	Online.client.profile_received.connect(_on_profile)
	Online.client.fetch_failed.connect(_on_failed)
	_title.add_theme_font_override(&"font", Online.name_font())
	_content.visible = false
	_say(tr("LEADERBOARD_LOADING"))
	var rc: int = Online.client.fetch_profile(Online.profile_player)
	if rc != 0:
		_say(Online.error_text(rc))
	%Back.grab_focus.call_deferred()


func _on_profile(p: PlayerProfile) -> void:
	var wanted := Online.profile_player if Online.profile_player != "" else String(Online.client.get_player_id())
	if String(p.player_id) != wanted:
		return  # an answer to an earlier request
	profile = p
	var mine := String(p.player_id) == String(Online.client.get_player_id())
	_title.text = tr("LEADERBOARD_YOU_FMT").format({name = p.nickname}) if mine else String(p.nickname)
	_rules.clear()
	_presets.clear()
	for r: Rating in p.ratings:
		_presets.append(String(r.rules))
		_rules.add_item(tr("RULES_" + String(r.rules).to_upper()))
	var first := maxi(_presets.find(Online.board_rules), 0)
	if not _presets.is_empty():
		_rules.select(first)
	# A new player has no rating under any rules: no empty list, the rating's line says so.
	_rules.visible = not _presets.is_empty()
	_rules.disabled = _presets.size() < 2
	_show_rating(_presets[first] if not _presets.is_empty() else "")
	var n := p.matches
	var pct := func(v: float) -> String: return "%d%%" % roundi(100.0 * v) if n > 0 else "–"
	(%Matches as Label).text = str(n)
	(%WinRate as Label).text = pct.call(p.win_rate)
	(%DoubleDown as Label).text = pct.call(p.double_down_rate)
	(%Bombs as Label).text = "%.2f" % p.bombs_per_deal if n > 0 else "–"
	_figures_note.text = UiKit.count_text("PROFILE_FIGURES_FMT", n) if n > 0 else tr("PROFILE_NO_MATCHES")
	_say("")
	_content.visible = true


## Shows the rating under `rules` ("" = none yet).
func _show_rating(rules: String) -> void:
	var r: Rating = null
	for x: Rating in profile.ratings if profile != null else []:
		if x.rules == rules:
			r = x
	if r == null:
		_rating.text = "–"
		_ranked.text = tr("PROFILE_NO_RATING")
		_chart.show_numbers(PackedFloat32Array())
		return
	_rating.text = str(int(r.rating))
	var key := "PROFILE_RANKED_ONE_FMT" if int(r.matches) == 1 else "PROFILE_RANKED_FMT"
	_ranked.text = tr(key).format({matches = int(r.matches), wins = int(r.wins)})
	# The course of the rating: where the oldest shown match started from, then after each.
	var points := PackedFloat32Array()
	var history := r.history
	if not history.is_empty():
		points.append(float(int(history[0].rating) - int(history[0].change)))
	for h: RatingPoint in history:
		points.append(float(h.rating))
	_chart.show_numbers(points)


func _on_failed(what: String, code: int, _message: String) -> void:
	if what == "profile":
		_say(Online.error_text(code))


## The loading note or a failure over the profile; no line at all once it is shown.
func _say(text: String) -> void:
	_status.text = text
	_status.visible = text != ""
