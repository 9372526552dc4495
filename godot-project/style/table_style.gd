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

@export_group("Table")
## While a table is on screen the felt is an oval around the play: its rim keeps this far inside
## the playing area at the left and right (and from the window's edges all round), the cloth's top
## edge this far under the top bar, and its lower edge oval_bottom below the action bar's top (the
## hand lies over the near rim).
@export var oval_inset := Vector2(8.0, 6.0):
	set(v):
		oval_inset = v
		emit_changed()
@export_range(-200.0, 200.0, 1.0, "suffix:lp") var oval_bottom := 40.0:
	set(v):
		oval_bottom = v
		emit_changed()
## The lacquer rim around the cloth: width, colour, and the light on its inner edge.
@export_range(0.0, 60.0, 1.0, "suffix:lp") var rim_width := 22.0:
	set(v):
		rim_width = v
		emit_changed()
@export var rim_color := Color(0.36, 0.1, 0.08):
	set(v):
		rim_color = v
		emit_changed()
@export var rim_light_color := Color(0.93, 0.72, 0.42):
	set(v):
		rim_light_color = v
		emit_changed()
## Outside the rim (the floor / the room).
@export var floor_color := Color(0.08, 0.06, 0.06):
	set(v):
		floor_color = v
		emit_changed()
## The spotlight over the play: radius as a share of the oval's height, strength.
@export_range(0.1, 2.0, 0.05) var light_radius := 0.75:
	set(v):
		light_radius = v
		emit_changed()
@export_range(0.0, 1.0, 0.01) var light_strength := 0.16:
	set(v):
		light_strength = v
		emit_changed()
## The seal watermark in the middle of the cloth (a square seal of 掼蛋, read right to left):
## colour (its alpha is the watermark's strength; 0 hides it) and side as a share of the oval's
## height. Baked into the felt, so it costs nothing a frame.
@export var seal_color := Color(0.85, 0.28, 0.35, 0.06):
	set(v):
		seal_color = v
		emit_changed()
@export_range(0.1, 0.9, 0.01) var seal_size := 0.36:
	set(v):
		seal_size = v
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

@export_group("Level plaque")
## The plaque at the top centre: both teams' levels in their colours, the level being played as a
## big numeral and the wild card as a mini card. Our team (jade) and the opponents (crimson).
@export var team_us_color := Color(0.231, 0.71, 0.541):
	set(v):
		team_us_color = v
		emit_changed()
@export var team_them_color := Color(0.851, 0.282, 0.353):
	set(v):
		team_them_color = v
		emit_changed()
## The plaque's ink panel behind the numeral.
@export var plaque_color := Color(0.04, 0.05, 0.05, 0.82):
	set(v):
		plaque_color = v
		emit_changed()
## The level numeral and the "playing" word (gold: the stake).
@export var plaque_numeral_color := Color(0.91, 0.765, 0.416):
	set(v):
		plaque_numeral_color = v
		emit_changed()
@export_range(16, 72, 1, "suffix:lp") var plaque_numeral_size := 32:
	set(v):
		plaque_numeral_size = v
		emit_changed()
## Team tiles, the "playing" word and the mini card's text (20 lp is the phone floor).
@export_range(12, 48, 1, "suffix:lp") var plaque_font_size := 20:
	set(v):
		plaque_font_size = v
		emit_changed()
@export var mini_card_color := Color(0.98, 0.96, 0.9):
	set(v):
		mini_card_color = v
		emit_changed()
@export var mini_card_red := Color(0.8, 0.1, 0.14):
	set(v):
		mini_card_red = v
		emit_changed()

@export_group("Action bar")
## 出牌 (Play, and Give / Return during tribute): the one obvious action, gold and widest.
@export var play_button_color := Color(0.91, 0.765, 0.416):
	set(v):
		play_button_color = v
		emit_changed()
@export var play_button_text_color := Color(0.16, 0.1, 0.02):
	set(v):
		play_button_text_color = v
		emit_changed()
## How much wider Play is than the other buttons.
@export_range(1.0, 3.0, 0.05) var play_button_width := 1.6:
	set(v):
		play_button_width = v
		emit_changed()
## 提示 (Hint).
@export var hint_button_color := Color(0.16, 0.5, 0.38):
	set(v):
		hint_button_color = v
		emit_changed()
## 不出 (Pass).
@export var pass_button_color := Color(0.27, 0.31, 0.36):
	set(v):
		pass_button_color = v
		emit_changed()
@export var action_text_color := Color(0.97, 0.96, 0.92):
	set(v):
		action_text_color = v
		emit_changed()
## A disabled action keeps its colour, darkened by this share (0 = as enabled).
@export_range(0.0, 1.0, 0.05) var action_disabled_darken := 0.45:
	set(v):
		action_disabled_darken = v
		emit_changed()
## While the others play the hand is never dimmed: it sinks by this much instead (at most the
## 6 lp under the cards, so it never leaves the table).
@export_range(0.0, 6.0, 0.5, "suffix:lp") var waiting_hand_drop := 6.0:
	set(v):
		waiting_hand_drop = v
		emit_changed()

@export_group("Moments")
## The word-art naming a play (顺子, 炸弹, 同花顺 …) over its slot.
@export var word_art_color := Color(1.0, 0.86, 0.45):
	set(v):
		word_art_color = v
		emit_changed()
@export var word_art_outline_color := Color(0.25, 0.08, 0.02, 0.95):
	set(v):
		word_art_outline_color = v
		emit_changed()
@export_range(0, 24, 1, "suffix:px") var word_art_outline_size := 10:
	set(v):
		word_art_outline_size = v
		emit_changed()
## The word-art's typeface (null = the theme's font).
@export var word_art_font: Font = preload("res://fonts/guandan_sans_bold.otf"):
	set(v):
		word_art_font = v
		emit_changed()
@export_range(20, 120, 1, "suffix:lp") var word_art_font_size := 44:
	set(v):
		word_art_font_size = v
		emit_changed()
## Room between a play and its word-art, which stands beside the play, never on it.
@export_range(0.0, 40.0, 1.0, "suffix:lp") var word_art_gap := 6.0:
	set(v):
		word_art_gap = v
		emit_changed()
## The sides of a play its word-art tries, in order: "inward" (toward the table's centre,
## horizontally), "outward", "centreward" (toward the centre, vertically) and "away".
@export var word_art_sides: Array[StringName] = [&"inward", &"centreward", &"outward", &"away"]:
	set(v):
		word_art_sides = v
		emit_changed()
## Where no side is free at full size the word shrinks, in this many steps, down to this share.
@export_range(1, 8, 1) var word_art_shrink_steps := 4:
	set(v):
		word_art_shrink_steps = v
		emit_changed()
@export_range(0.3, 1.0, 0.05) var word_art_min_scale := 0.55:
	set(v):
		word_art_min_scale = v
		emit_changed()
## A bomb's word-art is this much bigger.
@export_range(1.0, 2.5, 0.05) var word_art_bomb_scale := 1.3:
	set(v):
		word_art_bomb_scale = v
		emit_changed()
## The flash over the table when a bomb lands (alpha = strength at a 4-card bomb).
@export var bomb_flash_color := Color(1.0, 0.95, 0.8, 0.35):
	set(v):
		bomb_flash_color = v
		emit_changed()
@export var shockwave_color := Color(1.0, 0.8, 0.4, 0.85):
	set(v):
		shockwave_color = v
		emit_changed()
## Shockwave radius at a 4-card bomb, as a share of the table's height; each card more adds
## shockwave_growth of it.
@export_range(0.05, 1.0, 0.01) var shockwave_radius := 0.28:
	set(v):
		shockwave_radius = v
		emit_changed()
@export_range(0.0, 0.5, 0.01) var shockwave_growth := 0.12:
	set(v):
		shockwave_growth = v
		emit_changed()
## Sparks thrown by a 4-card bomb, and how many more per extra card.
@export_range(0, 200, 1) var bomb_particles := 18:
	set(v):
		bomb_particles = v
		emit_changed()
@export_range(0, 50, 1) var bomb_particles_per_card := 8:
	set(v):
		bomb_particles_per_card = v
		emit_changed()
@export var particle_color := Color(1.0, 0.7, 0.25):
	set(v):
		particle_color = v
		emit_changed()
## Shake of a 4-card bomb and what each card more adds.
@export_range(0.0, 40.0, 0.5, "suffix:px") var shake_px := 6.0:
	set(v):
		shake_px = v
		emit_changed()
@export_range(0.0, 20.0, 0.5, "suffix:px") var shake_per_card_px := 2.5:
	set(v):
		shake_per_card_px = v
		emit_changed()
## A straight flush (a 5-card bomb that beats a 5-card bomb) hits this much harder than a plain
## bomb of its size (flash, shockwave, sparks and shake).
@export_range(1.0, 3.0, 0.05) var straight_flush_boost := 1.4:
	set(v):
		straight_flush_boost = v
		emit_changed()
## Four jokers: the strongest shake and a gold burst.
@export_range(0.0, 40.0, 0.5, "suffix:px") var four_jokers_shake_px := 16.0:
	set(v):
		four_jokers_shake_px = v
		emit_changed()
@export var gold_burst_color := Color(1.0, 0.8, 0.2, 0.55):
	set(v):
		gold_burst_color = v
		emit_changed()
## The big moments (a bomb of big_bomb_min_cards or more, a straight flush, four jokers, 双下,
## the match won) take the whole table for a moment (PacingProfile big_moment_s, and the table's
## flow holds for big_moment_freeze_s): the felt dims except under the play, the moment's name
## stands large across the table's middle, a light sweeps the rim and the play's cards rise and
## glow. Low-performance mode and animations off: none of it (the word-art stays).
@export_range(4, 10, 1, "suffix:cards") var big_bomb_min_cards := 6:
	set(v):
		big_bomb_min_cards = v
		emit_changed()
## The dimming over the table at its strongest (the play itself stays lit).
@export var big_moment_dim_color := Color(0.0, 0.02, 0.01, 0.5):
	set(v):
		big_moment_dim_color = v
		emit_changed()
@export var big_moment_title_color := Color(1.0, 0.88, 0.5):
	set(v):
		big_moment_title_color = v
		emit_changed()
@export var big_moment_title_outline_color := Color(0.35, 0.06, 0.03, 0.95):
	set(v):
		big_moment_title_outline_color = v
		emit_changed()
@export_range(0, 32, 1, "suffix:px") var big_moment_title_outline_size := 16:
	set(v):
		big_moment_title_outline_size = v
		emit_changed()
## The name's size across the middle; where it would cover a seat or the plaque it shrinks, down to
## big_moment_title_min_scale of it.
@export_range(32, 200, 1, "suffix:lp") var big_moment_title_font_size := 92:
	set(v):
		big_moment_title_font_size = v
		emit_changed()
@export_range(0.2, 1.0, 0.05) var big_moment_title_min_scale := 0.4:
	set(v):
		big_moment_title_min_scale = v
		emit_changed()
## The light running round the rim: its colour, width and the share of the rim it lights at once.
@export var big_moment_sweep_color := Color(1.0, 0.92, 0.65, 0.9):
	set(v):
		big_moment_sweep_color = v
		emit_changed()
@export_range(1.0, 40.0, 0.5, "suffix:px") var big_moment_sweep_width := 9.0:
	set(v):
		big_moment_sweep_width = v
		emit_changed()
@export_range(0.05, 0.5, 0.01) var big_moment_sweep_share := 0.22:
	set(v):
		big_moment_sweep_share = v
		emit_changed()
## The glow round the play's cards, and how far they rise.
@export var big_moment_glow_color := Color(1.0, 0.82, 0.35, 0.75):
	set(v):
		big_moment_glow_color = v
		emit_changed()
@export_range(0.0, 40.0, 1.0, "suffix:lp") var big_moment_lift := 12.0:
	set(v):
		big_moment_lift = v
		emit_changed()

@export_group("Fireworks")
## Fireworks over the felt when the player's side wins the match (PacingProfile fireworks_s):
## this many bursts, one after another, each opening into a ring of sparks.
@export_range(0, 20, 1) var fireworks_bursts := 7:
	set(v):
		fireworks_bursts = v
		emit_changed()
@export_range(4, 120, 1) var fireworks_sparks := 40:
	set(v):
		fireworks_sparks = v
		emit_changed()
## A burst's radius as a share of the table's height.
@export_range(0.03, 0.5, 0.01) var fireworks_radius := 0.13:
	set(v):
		fireworks_radius = v
		emit_changed()
## The bursts' colours, taken in turn: gold, the teams' jade and crimson lightened (the plain
## team colours vanish on the dimmed felt), white.
@export var fireworks_colors: Array[Color] = [Color(1.0, 0.85, 0.4), Color(0.6, 1.0, 0.85),
		Color(1.0, 0.5, 0.56), Color(1.0, 0.97, 0.9)]:
	set(v):
		fireworks_colors = v
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
