@tool
class_name TableStyle
extends Resource
## How the table looks around the cards: the felt, the margins the seats keep, and the banners
## ("Table cleared", "Bomb!"). Saved as res://resources/style/table_default.tres; the felt, the
## banner and the table layout read `TableStyle.current()`, so editing the .tres restyles the game.

const DEFAULT_PATH := "res://resources/style/table_default.tres"

@export_group("Felt")
## Colour in the middle of the cloth (under the centre light).
@export var felt_centre_color := Color(0.12, 0.42, 0.27):
	set(v):
		felt_centre_color = v
		emit_changed()
## Colour at the edges (the vignette).
@export var felt_edge_color := Color(0.03, 0.16, 0.1):
	set(v):
		felt_edge_color = v
		emit_changed()
## Strength of the woven grain (0 = flat cloth).
@export_range(0.0, 0.2, 0.005) var felt_grain := 0.035:
	set(v):
		felt_grain = v
		emit_changed()
## The plain colour used instead of the shader in low-performance mode.
@export var felt_flat_color := Color(0.07, 0.29, 0.19):
	set(v):
		felt_flat_color = v
		emit_changed()

@export_group("Seats")
## Gap between the west/east seat badges and the edge of the playing area.
@export_range(0.0, 80.0, 1.0, "suffix:px") var seat_margin := 6.0:
	set(v):
		seat_margin = v
		emit_changed()

@export_group("Banner")
@export var banner_color := Color(1.0, 0.9, 0.55):
	set(v):
		banner_color = v
		emit_changed()
@export var banner_outline_color := Color(0.05, 0.05, 0.02, 0.9):
	set(v):
		banner_outline_color = v
		emit_changed()
@export_range(0, 24, 1, "suffix:px") var banner_outline_size := 10:
	set(v):
		banner_outline_size = v
		emit_changed()
## Font size of a banner that fits; longer texts shrink down to banner_min_font_size.
@export_range(12, 96, 1, "suffix:px") var banner_font_size := 38:
	set(v):
		banner_font_size = v
		emit_changed()
@export_range(8, 64, 1, "suffix:px") var banner_min_font_size := 20:
	set(v):
		banner_min_font_size = v
		emit_changed()

@export_group("Heat map")
## Training's heat map: a bar above each card in the colour of its strongest use, and a legend
## swatch per colour in the sidebar. Alpha is the bar's at full weight (the weight scales it);
## the legend draws the colour opaque. Red: bomb material.
@export var heat_bomb_color := Color(0.95, 0.15, 0.15, 0.4):
	set(v):
		heat_bomb_color = v
		emit_changed()
## Straight material.
@export var heat_straight_color := Color(0.15, 0.4, 1.0, 0.38):
	set(v):
		heat_straight_color = v
		emit_changed()
## Wilds.
@export var heat_wild_color := Color(1.0, 0.82, 0.05, 0.45):
	set(v):
		heat_wild_color = v
		emit_changed()
## "Danger": a lone low card that will be hard to get rid of.
@export var heat_danger_color := Color(0.62, 0.6, 0.68, 0.4):
	set(v):
		heat_danger_color = v
		emit_changed()

## A style set by code (tools, tests) that wins over the default file; null = the file's.
static var _override: TableStyle
static var _default: TableStyle


## The table style in use: the override if any, else table_default.tres.
static func current() -> TableStyle:
	if _override != null:
		return _override
	if _default == null:
		_default = load(DEFAULT_PATH) as TableStyle
		if _default == null:
			push_error("TableStyle: %s is not a TableStyle" % DEFAULT_PATH)
			_default = TableStyle.new()
	return _default


## Uses `style` for the table parts created from now on (null = the default file again).
static func use(style: TableStyle) -> void:
	_override = style


## The heat map palette, category -> colour, in the legend's order (the advisor's categories).
func heat_colors() -> Dictionary:
	return {"bomb": heat_bomb_color, "straight": heat_straight_color, "wild": heat_wild_color,
		"danger": heat_danger_color}
