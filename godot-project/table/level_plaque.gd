class_name LevelPlaque
extends HBoxContainer
## The level at a glance, at the top centre of the table: our team's level on a jade tile, the
## level being played now as a big gold numeral ("打 5"), the wild card as a mini card (♥5), and
## the opponents' level on a crimson tile. A spectator's tiles name the teams by their seats.
## Colours and sizes come from TableStyle (the "Level plaque" group); the layout is
## level_plaque.tscn, so this script only fills in the texts and restyles.

@onready var _us: Label = %UsLevel
@onready var _them: Label = %ThemLevel
@onready var _us_tile: PanelContainer = %UsTile
@onready var _them_tile: PanelContainer = %ThemTile
@onready var _centre: PanelContainer = %Centre
@onready var _playing: Label = %Playing
@onready var _numeral: Label = %Numeral
@onready var _wild_card: PanelContainer = %WildCard
@onready var _wild: Label = %Wild

var _levels := PackedInt32Array([2, 2])
var _level := 2
var _spectator := false


func _ready() -> void:
	TableStyle.current().changed.connect(_restyle)
	_restyle()
	_refresh()


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED and is_node_ready():
		_refresh()


## Shows both teams' levels (us first) and the level being played; the wild is ♥ of that level.
func show_levels(team_levels: PackedInt32Array, level: int, spectator := false) -> void:
	_levels = team_levels.duplicate()
	_level = level
	_spectator = spectator
	# Before _ready the labels are not taken yet; _ready shows what was set here.
	if is_node_ready():
		_refresh()


## The end of a deal's flip (DealCeremony): the tiles show the levels `before` and, after
## `wait_s`, each tile whose level changed flips over (`flip_s` in all) to the level shown now.
## Without a flip time the new levels simply stand. Not a coroutine: the plaque may go mid-flip.
func flip_from(before: PackedInt32Array, wait_s: float, flip_s: float) -> void:
	if flip_s <= 0.0 or not is_node_ready() or before.size() < 2:
		return
	for team in 2:
		if before[team] == _levels[team]:
			continue
		var label: Label = [_us, _them][team]
		var tile: Control = [_us_tile, _them_tile][team]
		label.text = "%s %s" % [_team(team), Cards.rank_label(before[team])]
		tile.pivot_offset = tile.size * 0.5
		var tw := tile.create_tween()
		tw.tween_interval(wait_s)
		tw.tween_property(tile, "scale:y", 0.0, flip_s * 0.5).set_ease(Tween.EASE_IN)
		tw.tween_callback(_refresh)
		tw.tween_property(tile, "scale:y", 1.0, flip_s * 0.5).set_ease(Tween.EASE_OUT)


## The texts shown, for tests and screenshots: {us, them, playing, wild}.
func shown() -> Dictionary:
	return {us = _us.text, them = _them.text, playing = _numeral.text, wild = _wild.text}


## The team tiles' colours (tests).
func tile_colors() -> Array[Color]:
	return [(_us_tile.get_theme_stylebox(&"panel") as StyleBoxFlat).bg_color,
		(_them_tile.get_theme_stylebox(&"panel") as StyleBoxFlat).bg_color]


func _refresh() -> void:
	_us.text = "%s %s" % [_team(0), Cards.rank_label(_levels[0])]
	_them.text = "%s %s" % [_team(1), Cards.rank_label(_levels[1])]
	_playing.text = tr("PLAQUE_PLAYING")
	_numeral.text = Cards.rank_label(_level)
	_wild.text = "♥" + Cards.rank_label(_level)
	_wild_card.tooltip_text = tr("PLAQUE_WILD_TIP").format({wild = _wild.text})
	_centre.tooltip_text = tr("PLAYING_FMT").format({level = _numeral.text, wild = _wild.text})


## "Us" / "Them" to a player (short: a tile), the seats' team names to a spectator.
func _team(t: int) -> String:
	if _spectator:
		return Wording.team(t, true)
	return tr("PLAQUE_US" if t == 0 else "PLAQUE_THEM")


func _restyle() -> void:
	var st := TableStyle.current()
	_us_tile.add_theme_stylebox_override(&"panel", _box(st.team_us_color, 8, 10))
	_them_tile.add_theme_stylebox_override(&"panel", _box(st.team_them_color, 8, 10))
	_centre.add_theme_stylebox_override(&"panel", _box(st.plaque_color, 10, 12, st.plaque_numeral_color))
	_wild_card.add_theme_stylebox_override(&"panel", _box(st.mini_card_color, 4, 5))
	# The tiles' white, outlined lettering is the scene's; only the size follows the style.
	for l: Label in [_us, _them]:
		l.add_theme_font_size_override(&"font_size", st.plaque_font_size)
	_playing.add_theme_font_size_override(&"font_size", st.plaque_font_size)
	_playing.add_theme_color_override(&"font_color", st.plaque_numeral_color)
	_numeral.add_theme_font_size_override(&"font_size", st.plaque_numeral_size)
	_numeral.add_theme_color_override(&"font_color", st.plaque_numeral_color)
	_wild.add_theme_font_size_override(&"font_size", st.plaque_font_size)
	_wild.add_theme_color_override(&"font_color", st.mini_card_red)


## A rounded, borderless ink box (a thin gold edge for the centre).
static func _box(colour: Color, radius: int, margin_x: int, edge := Color(0, 0, 0, 0)) -> StyleBoxFlat:
	var b := StyleBoxFlat.new()
	b.bg_color = colour
	b.set_corner_radius_all(radius)
	b.content_margin_left = margin_x
	b.content_margin_right = margin_x
	b.content_margin_top = 0
	b.content_margin_bottom = 0
	if edge.a > 0.0:
		b.set_border_width_all(1)
		b.border_color = edge
	return b
