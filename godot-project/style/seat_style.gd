@tool
class_name SeatStyle
extends Resource
## How the people at the table look: the round avatar in its team-coloured ring (the colours are
## TableStyle's, shared with the level plaque), the turn
## countdown drawn around it, the finishing-place medal and the cards-left chip. Saved as
## res://resources/style/seat_default.tres; every seat badge reads `SeatStyle.current()`, so
## editing the .tres restyles the seats.

const DEFAULT_PATH := "res://resources/style/seat_default.tres"

static var _current: SeatStyle

@export_group("Avatar")
## Diameter of the avatar, ring included.
@export_range(32.0, 160.0, 1.0, "suffix:px") var avatar_size := 62.0:
	set(v):
		avatar_size = v
		emit_changed()
@export_range(1.0, 12.0, 0.5, "suffix:px") var ring_width := 4.0:
	set(v):
		ring_width = v
		emit_changed()
## Backgrounds an avatar is drawn on; a seat's name picks one (the same name, the same face).
@export var backgrounds: PackedColorArray = PackedColorArray([Color(0.36, 0.42, 0.62), Color(0.55, 0.38, 0.3),
	Color(0.3, 0.5, 0.47), Color(0.52, 0.45, 0.25), Color(0.45, 0.33, 0.52), Color(0.28, 0.4, 0.3)]):
	set(v):
		backgrounds = v
		emit_changed()
## Skin tones of the bust.
@export var skins: PackedColorArray = PackedColorArray([Color(0.96, 0.84, 0.7), Color(0.87, 0.7, 0.55),
	Color(0.74, 0.56, 0.42), Color(0.93, 0.78, 0.62)]):
	set(v):
		skins = v
		emit_changed()
## Hair and clothes.
@export var hair_colors: PackedColorArray = PackedColorArray([Color(0.12, 0.1, 0.09), Color(0.3, 0.22, 0.16),
	Color(0.55, 0.55, 0.58), Color(0.2, 0.17, 0.2)]):
	set(v):
		hair_colors = v
		emit_changed()
@export var clothes_colors: PackedColorArray = PackedColorArray([Color(0.16, 0.22, 0.36), Color(0.55, 0.16, 0.18),
	Color(0.2, 0.36, 0.28), Color(0.36, 0.3, 0.18)]):
	set(v):
		clothes_colors = v
		emit_changed()
## An AI seat's bust is drawn as a small robot instead of a person.
@export var ai_face_color := Color(0.78, 0.82, 0.86):
	set(v):
		ai_face_color = v
		emit_changed()

@export_group("Turn")
## The countdown ring around the avatar while the seat has the turn.
@export var countdown_color := Color(0.91, 0.76, 0.42):
	set(v):
		countdown_color = v
		emit_changed()
## The ring's colour in the last part of the time (below countdown_warn_fraction).
@export var countdown_warn_color := Color(1.0, 0.4, 0.3):
	set(v):
		countdown_warn_color = v
		emit_changed()
@export_range(0.0, 1.0, 0.05) var countdown_warn_fraction := 0.25:
	set(v):
		countdown_warn_fraction = v
		emit_changed()
@export_range(1.0, 16.0, 0.5, "suffix:px") var countdown_width := 5.0:
	set(v):
		countdown_width = v
		emit_changed()

@export_group("Medal and chip")
## Medal colours for 头游, 二游, 三游, 末游.
@export var medal_colors: PackedColorArray = PackedColorArray([Color(0.96, 0.78, 0.3), Color(0.8, 0.82, 0.86),
	Color(0.8, 0.52, 0.3), Color(0.45, 0.47, 0.5)]):
	set(v):
		medal_colors = v
		emit_changed()
## The cards-left chip, and its colour at or below the seat's warning count.
@export var chip_color := Color(0.06, 0.08, 0.07, 0.92):
	set(v):
		chip_color = v
		emit_changed()
@export var chip_warn_color := Color(0.78, 0.16, 0.18, 0.95):
	set(v):
		chip_warn_color = v
		emit_changed()


## The style every seat uses (the .tres, loaded once).
static func current() -> SeatStyle:
	if _current == null:
		_current = load(DEFAULT_PATH) as SeatStyle
		if _current == null:
			push_warning("SeatStyle: %s missing; using defaults" % DEFAULT_PATH)
			_current = SeatStyle.new()
	return _current


## The ring of `seat`'s team: the table's team colours (TableStyle's team_us_color for seats 0
## and 2 — the player's side, or south–north for a spectator — team_them_color for 1 and 3).
func team_color(seat: int) -> Color:
	var table := TableStyle.current()
	return table.team_us_color if seat % 2 == 0 else table.team_them_color


## A stable pick from `colors` for `key` (the same key, the same pick, on every machine).
static func pick(colors: PackedColorArray, key: int) -> Color:
	return colors[posmod(key, colors.size())] if not colors.is_empty() else Color.GRAY
