class_name LevelPlaque
extends HBoxContainer
## The level at a glance, at the top centre of the table: our team's level on a jade tile, the
## level being played now as a big gold numeral ("打 5"), the wild card as a mini card (♥5), and
## the opponents' level on a crimson tile. A spectator's tiles name the teams by their seats.
## Colours and sizes come from TableStyle (the "Level plaque" group).

var _us := Label.new()
var _them := Label.new()
var _us_tile := PanelContainer.new()
var _them_tile := PanelContainer.new()
var _centre := PanelContainer.new()
var _playing := Label.new()
var _numeral := Label.new()
var _wild_card := PanelContainer.new()
var _wild := Label.new()

var _levels := PackedInt32Array([2, 2])
var _level := 2
var _spectator := false


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	alignment = BoxContainer.ALIGNMENT_CENTER
	add_theme_constant_override(&"separation", 6)
	size_flags_vertical = Control.SIZE_SHRINK_CENTER
	for l: Label in [_us, _them, _playing, _numeral, _wild]:
		l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		l.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
		l.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
		l.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_us.name = &"UsLevel"
	_them.name = &"ThemLevel"
	_numeral.name = &"Numeral"
	_wild.name = &"Wild"
	_us_tile.add_child(_us)
	_them_tile.add_child(_them)
	var mid := HBoxContainer.new()
	mid.add_theme_constant_override(&"separation", 6)
	mid.alignment = BoxContainer.ALIGNMENT_CENTER
	mid.add_child(_playing)
	mid.add_child(_numeral)
	_wild_card.add_child(_wild)
	_wild_card.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	mid.add_child(_wild_card)
	_centre.add_child(mid)
	for c: Control in [_us_tile, _centre, _them_tile]:
		c.mouse_filter = Control.MOUSE_FILTER_IGNORE
		c.size_flags_vertical = Control.SIZE_SHRINK_CENTER
		add_child(c)


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
	_refresh()


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
	for l: Label in [_us, _them]:
		l.add_theme_font_size_override(&"font_size", st.plaque_font_size)
		l.add_theme_color_override(&"font_color", Color.WHITE)
		l.add_theme_color_override(&"font_outline_color", Color(0, 0, 0, 0.55))
		l.add_theme_constant_override(&"outline_size", 4)
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
