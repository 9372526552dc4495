class_name LevelTile
extends PanelContainer
## One team's level at the end of a deal (level_tile.tscn): the team's name over a big numeral
## that flips from the level before to the level after, and the change ("+3") appearing beside
## it. Made by DealEndPanel; the team colour from SeatStyle, timings from the pacing profile.

var before := ""
var after := ""
var delta := 0

var _numeral: Label
var _change: Label


## A tile from level_tile.tscn (the scene holds its look; the team's colour tints it).
static func create(team_name: String, team_color: Color, level_before: String, level_after: String, change: int) -> LevelTile:
	var tile: LevelTile = load("res://table/level_tile.tscn").instantiate()
	tile.before = level_before
	tile.after = level_after
	tile.delta = change
	var box := (tile.get_theme_stylebox(&"panel") as StyleBoxFlat).duplicate() as StyleBoxFlat
	box.bg_color = Color(team_color.darkened(0.6), 0.92)
	box.border_color = team_color
	tile.add_theme_stylebox_override(&"panel", box)
	tile._numeral = tile.get_node(^"%Numeral")
	tile._change = tile.get_node(^"%Change")
	(tile.get_node(^"%Team") as Label).text = team_name
	tile._numeral.text = level_before
	tile._change.text = ("+%d" % change) if change > 0 else ("%d" % change) if change < 0 else "±0"
	tile._change.add_theme_color_override(&"font_color", Color(0.98, 0.8, 0.35) if change > 0 else Color(0.8, 0.84, 0.82))
	return tile


## The numeral shown now (the old level until the flip, then the new one).
func shown() -> String:
	return _numeral.text


## Flips to the new level after `wait_s` (`flip_s` for the whole flip; 0: at once). Not a
## coroutine: the tile may be freed mid-flip (the tween goes with it).
func flip(wait_s: float, flip_s: float) -> void:
	if flip_s <= 0.0 or not is_inside_tree():
		_numeral.text = after
		_change.modulate.a = 1.0
		return
	_numeral.pivot_offset = _numeral.size * 0.5
	var tw := create_tween()
	tw.tween_interval(wait_s)
	tw.tween_property(_numeral, "scale:y", 0.0, flip_s * 0.5).set_ease(Tween.EASE_IN)
	tw.tween_callback(func() -> void: _numeral.text = after)
	tw.tween_property(_numeral, "scale:y", 1.0, flip_s * 0.5).set_ease(Tween.EASE_OUT)
	tw.tween_property(_change, "modulate:a", 1.0, flip_s * 0.5)
