class_name MatchEndPanel
extends VBoxContainer
## The match's end as a screen over the table (match_end_panel.tscn; Modal.open_screen shows it
## under its title, Rematch / Review / Back below): why the match ended, both teams' final levels,
## each player's medals over the match (头游 … 末游 counts, from MatchTally), a few figures of the
## match (deals, bombs, 头游 per team) and, after a ranked match online, the rating counted up
## with the player's rank (RankTable), called out as the count crosses into another.

## The portraits' size on the screen (lp).
const FACE_PX := 64.0
## How long the rating counts up (s, at animation speed 1).
const COUNT_UP_S := 1.2

var _shown_rating := 0.0
var _rating_change := 0
## The rank before the match (RankTable), for the call-out when the count crosses a boundary.
var _rank_before := 0
## The colours of a rank reached (up) and lost (down).
const RANK_UP_COLOR := Color(1.0, 0.84, 0.3)
const RANK_DOWN_COLOR := Color(0.85, 0.7, 0.65)
var _tween: Tween
## The plain rating line the online table adds under the screen ("Rating 1226 (+24)"): hidden
## while this screen counts the same rating up.
var _rating_twin := ""


## A panel built from match_end_panel.tscn.
static func create() -> MatchEndPanel:
	return load("res://table/match_end_panel.tscn").instantiate()


func _ready() -> void:
	get_viewport().size_changed.connect(_fit)
	_fit()
	var lines := get_parent()
	if lines != null:
		lines.child_entered_tree.connect(_hide_rating_twin)


func _hide_rating_twin(line: Node) -> void:
	if line is Label and _rating_twin != "" and (line as Label).text == _rating_twin:
		(line as Label).visible = false


## A screen, not a dialog: most of the table's width whatever the window.
func _fit() -> void:
	custom_minimum_size.x = minf(get_viewport_rect().size.x * 0.7, 1500.0)


func _exit_tree() -> void:
	if _tween != null:
		_tween.kill()


## Texts are already translated.
func fill(reason: String, final_levels: String) -> void:
	(%Reason as Label).text = reason
	(%FinalLevels as Label).text = final_levels


## Each seat's medals and the match's figures from `tally`, the seats as `table` draws them.
func show_match(table: Table, tally: MatchTally) -> void:
	var players: Container = %Players
	for c in players.get_children():
		c.queue_free()
	# South, West, North, East: the partners apart, as round the table.
	for seat: int in [0, 3, 2, 1]:
		players.add_child(_player(table.badges[seat], seat, tally))
	var figures: Container = %Figures
	for c in figures.get_children():
		c.queue_free()
	var us := 0 if table.spectator else table.local_seat % 2
	figures.add_child(_figure(&"Deals", str(tally.deals()), tr("END_DEALS")))
	figures.add_child(_figure(&"Bombs", str(tally.bombs_total()), tr("END_BOMBS")))
	var firsts := "%d : %d" % [tally.firsts_of_team(us), tally.firsts_of_team(1 - us)]
	var caption := Wording.team(us, table.spectator) + " : " + Wording.team(1 - us, table.spectator)
	figures.add_child(_figure(&"Firsts", firsts, tr("END_FIRSTS_FMT").format({teams = caption})))


## The medals shown for the seat drawn at `seat` (places 1–4), as the screen shows them.
func medals_shown(seat: int) -> PackedInt32Array:
	var out := PackedInt32Array()
	var column := (%Players as Node).get_node_or_null("Seat%d" % seat)
	for place in range(1, 5):
		var l := column.find_child("Count%d" % place, true, false) as Label if column != null else null
		out.append(int(l.text.trim_prefix("×")) if l != null else -1)
	return out


## A ranked match's rating: `change` shown at once, the rating counted up from before to after.
func show_rating(rating: int, change: int, at_once := false) -> void:
	(%RatingBox as Control).visible = true
	_rating_change = change
	_rank_before = RankTable.current().rank_of(rating - change)
	_rating_twin = tr("ONLINE_RATING_FMT").format({rating = rating,
		change = ("+%d" % change) if change >= 0 else str(change)})
	if get_parent() != null:
		for line in get_parent().get_children():
			_hide_rating_twin(line)
	if _tween != null:
		_tween.kill()
	var t := 0.0 if at_once else Settings.anim_time(COUNT_UP_S)
	if t <= 0.0:
		_set_rating(rating)
		return
	_set_rating(rating - change)
	_tween = create_tween()
	_tween.tween_method(_set_rating, float(rating - change), float(rating), t).set_ease(Tween.EASE_OUT)


func _set_rating(value: float) -> void:
	_shown_rating = value
	var change := ("+%d" % _rating_change) if _rating_change >= 0 else str(_rating_change)
	var l: Label = %Rating
	l.text = tr("END_RATING_FMT").format({change = change, rating = roundi(value)})
	l.add_theme_color_override(&"font_color", Color(0.55, 0.95, 0.6) if _rating_change >= 0 else Color(1, 0.55, 0.45))
	# The rank of the number shown: a rank reached or lost is called out as the count crosses it.
	var ranks := RankTable.current()
	var rank := ranks.rank_of(roundi(value))
	var r: Label = %Rank
	var key := "END_RANK_FMT" if rank == _rank_before else "END_RANK_UP_FMT" if rank > _rank_before else "END_RANK_DOWN_FMT"
	r.text = tr(key).format({rank = ranks.rank_name(rank)})
	r.add_theme_color_override(&"font_color", Color(0.9, 0.92, 0.9) if rank == _rank_before
		else RANK_UP_COLOR if rank > _rank_before else RANK_DOWN_COLOR)


## The rank line as shown (tests): "Rank: Skilled", "Up to Expert!".
func rank_shown() -> String:
	return (%Rank as Label).text


func _player(badge: SeatBadge, seat: int, tally: MatchTally) -> Control:
	var col := VBoxContainer.new()
	col.name = "Seat%d" % seat
	col.add_theme_constant_override(&"separation", 4)
	col.custom_minimum_size.x = 150.0
	var face := DealCeremonyCard.face(badge, FACE_PX, 0)
	face.size_flags_horizontal = Control.SIZE_SHRINK_CENTER
	col.add_child(face)
	col.add_child(DealCeremonyCard.line(&"Name", DealCeremonyCard.seat_title(badge), Color.WHITE, 20))
	var grid := GridContainer.new()
	grid.columns = 2
	grid.add_theme_constant_override(&"h_separation", 10)
	grid.add_theme_constant_override(&"v_separation", 2)
	grid.size_flags_horizontal = Control.SIZE_SHRINK_CENTER
	var colours: PackedColorArray = SeatStyle.current().medal_colors
	for place in range(1, 5):
		var n := tally.medals(seat, place)
		var row := HBoxContainer.new()
		row.add_theme_constant_override(&"separation", 4)
		var medal := DealCeremonyCard.line(&"Medal%d" % place, tr("PLACE_%d" % place), colours[place - 1], 17)
		row.add_child(medal)
		var count := DealCeremonyCard.line(&"Count%d" % place, "×%d" % n, Color.WHITE if n > 0 else Color(1, 1, 1, 0.45), 17)
		row.add_child(count)
		grid.add_child(row)
	col.add_child(grid)
	return col


func _figure(id: StringName, value: String, caption: String) -> Control:
	var box := VBoxContainer.new()
	box.name = id
	box.add_theme_constant_override(&"separation", 0)
	box.add_child(DealCeremonyCard.line(&"Value", value, Color(0.98, 0.85, 0.45), 30))
	box.add_child(DealCeremonyCard.line(&"Caption", caption, Color(0.85, 0.9, 0.88), 16))
	return box
