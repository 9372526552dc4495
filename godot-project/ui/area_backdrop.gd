@tool
class_name AreaBackdrop
extends Control
## The picture behind a screen's content, one per area of the game, drawn over the felt (the app's
## cloth, table/felt.gd) in the table's palette (TableStyle: rim, rim light, felt), so the screens
## are not all the same flat green:
##   &"menu"     the table's lacquer rim seen from your seat, across the bottom, and the four suits
##               large and faint in the corners (main menu, settings, rules, credits);
##   &"online"   a gold key-fret border top and bottom and four places around a faint table
##               (online menu, leaderboard, profile, account);
##   &"records"  ledger lines and the level tiles 2 … A along the bottom (replays, statistics).
## Static vector drawing (redrawn only on resize or a style change), so it costs nothing per frame
## and needs no low-performance variant. Put it first under a screen's root, full rect.

const AREAS: Array[StringName] = [&"menu", &"online", &"records"]
const SUITS := ["♠", "♥", "♣", "♦"]

@export_enum("menu", "online", "records") var area: String = "menu":
	set(v):
		area = v
		queue_redraw()

var _style: TableStyle


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_style = TableStyle.current()
	if not _style.changed.is_connected(queue_redraw):
		_style.changed.connect(queue_redraw)
	resized.connect(queue_redraw)


## What the backdrop draws for its area (tests tell the areas apart by it).
func motif() -> StringName:
	match area:
		"online":
			return &"fret_and_places"
		"records":
			return &"ledger_and_tiles"
	return &"rim_and_suits"


func _draw() -> void:
	if _style == null or size.x < 8.0 or size.y < 8.0:
		return
	match area:
		"online":
			_draw_online()
		"records":
			_draw_records()
		_:
			_draw_menu()


## The part of the backdrop (this node's coordinates) nothing strong is drawn across — only the
## faint suits: a screen keeps its text there. The menu area: above the rim; the others: all of it.
func clear_rect() -> Rect2:
	if area != "menu":
		return Rect2(Vector2.ZERO, size)
	var m := _menu_rim()
	# The shadow arc is the outermost: at radii + 1.1 rim, 0.3 rim wide.
	var top: float = m.centre.y - m.radii.y - m.rim * 1.25
	return Rect2(0.0, 0.0, size.x, clampf(top, 0.0, size.y))


## The menu's rim: its ellipse (centre, radii) and width.
func _menu_rim() -> Dictionary:
	return {centre = Vector2(size.x * 0.5, size.y * 1.62), radii = Vector2(size.x * 0.78, size.y * 0.72),
		rim = maxf(14.0, size.y * 0.03)}


## The table's near edge: a wide lacquer arc rising from the bottom corners, lit on its inner side.
func _draw_menu() -> void:
	var w := size.x
	var h := size.y
	var m := _menu_rim()
	var centre: Vector2 = m.centre
	var radii: Vector2 = m.radii
	var rim: float = m.rim
	_arc(centre, radii + Vector2(rim, rim) * 0.5, Color(_style.rim_color, 0.75), rim)
	_arc(centre, radii - Vector2(rim, rim) * 0.05, Color(_style.rim_light_color, 0.55), maxf(2.0, rim * 0.12))
	_arc(centre, radii + Vector2(rim, rim) * 1.1, Color(0, 0, 0, 0.25), rim * 0.3)
	var font := get_theme_default_font()
	var fs := int(minf(w, h) * 0.22)
	var ink := Color(_style.rim_light_color, 0.07)
	var corners := [Vector2(0.02, 0.04), Vector2(0.86, 0.04), Vector2(0.02, 0.62), Vector2(0.86, 0.62)]
	for i in 4:
		var at := Vector2(w * corners[i].x, h * corners[i].y + fs)
		draw_string(font, at, SUITS[i], HORIZONTAL_ALIGNMENT_LEFT, -1, fs, ink)


## A key-fret (回纹) band along the top and the bottom, and four faint places around a table.
func _draw_online() -> void:
	var w := size.x
	var h := size.y
	var cell := clampf(h * 0.035, 14.0, 40.0)
	var gold := Color(_style.rim_light_color, 0.28)
	for y in [cell * 0.6, h - cell * 1.6]:
		_fret_band(y, cell, gold)
	var centre := Vector2(w * 0.5, h * 0.55)
	var radii := Vector2(minf(w * 0.3, h * 0.5), minf(h * 0.26, w * 0.2))
	draw_set_transform(centre, 0.0, Vector2(1.0, radii.y / radii.x))
	draw_circle(Vector2.ZERO, radii.x, Color(_style.felt_centre_color, 0.18))
	draw_arc(Vector2.ZERO, radii.x, 0.0, TAU, 96, Color(_style.rim_color, 0.35), 10.0 * radii.x / radii.y, true)
	draw_set_transform(Vector2.ZERO)
	var seat_r := radii.y * 0.26
	for p: Vector2 in [Vector2(0, 1), Vector2(1, 0), Vector2(0, -1), Vector2(-1, 0)]:
		var c := centre + p * (radii + Vector2(seat_r, seat_r) * 1.5)
		draw_circle(c, seat_r, Color(_style.rim_light_color, 0.06))
		draw_arc(c, seat_r, 0.0, TAU, 48, Color(_style.rim_light_color, 0.16), 2.0, true)


## Faint ruled lines like a score book, and the level tiles 2 … A along the bottom.
func _draw_records() -> void:
	var w := size.x
	var h := size.y
	var step := clampf(h * 0.06, 24.0, 72.0)
	var line := Color(_style.rim_light_color, 0.05)
	var y := step
	while y < h * 0.84:
		draw_line(Vector2(0, y), Vector2(w, y), line, 1.0)
		y += step
	draw_line(Vector2(w * 0.08, 0), Vector2(w * 0.08, h), Color(_style.team_them_color, 0.1), 2.0)
	var font := get_theme_default_font()
	var ranks := 13
	var tile := Vector2(minf(w / (ranks * 1.25), h * 0.08), 0.0)
	tile.y = tile.x * 1.3
	var gap := tile.x * 0.25
	var x0 := (w - ranks * tile.x - (ranks - 1) * gap) / 2.0
	var top := h - tile.y - maxf(8.0, h * 0.02)
	for i in ranks:
		var r := Rect2(Vector2(x0 + i * (tile.x + gap), top), tile)
		var team := _style.team_us_color if i % 2 == 0 else _style.team_them_color
		draw_rect(r, Color(team, 0.1))
		draw_rect(r, Color(_style.rim_light_color, 0.18), false, 1.5)
		var label := Cards.rank_label(i + 2)
		var fs := int(tile.x * (0.55 if label.length() == 1 else 0.42))
		draw_string(font, Vector2(r.position.x, r.get_center().y + fs * 0.35), label,
				HORIZONTAL_ALIGNMENT_CENTER, tile.x, fs, Color(_style.rim_light_color, 0.3))


## An ellipse arc (the part inside this rect is what shows).
func _arc(centre: Vector2, radii: Vector2, color: Color, width: float) -> void:
	var pts := PackedVector2Array()
	for k in 129:
		var a := PI + PI * k / 128.0
		pts.append(centre + Vector2(cos(a) * radii.x, sin(a) * radii.y))
	draw_polyline(pts, color, width, true)


## One band of key-fret: a square spiral hook repeated every `cell` × 2 along the width.
func _fret_band(y: float, cell: float, color: Color) -> void:
	var width := maxf(1.5, cell * 0.12)
	draw_line(Vector2(0, y - cell * 0.2), Vector2(size.x, y - cell * 0.2), color, width)
	draw_line(Vector2(0, y + cell * 1.2), Vector2(size.x, y + cell * 1.2), color, width)
	var x := cell * 0.2
	while x < size.x:
		var s := cell
		var hook := PackedVector2Array([
			Vector2(x, y + s), Vector2(x, y), Vector2(x + s, y), Vector2(x + s, y + s * 0.75),
			Vector2(x + s * 0.3, y + s * 0.75), Vector2(x + s * 0.3, y + s * 0.3), Vector2(x + s * 0.65, y + s * 0.3),
		])
		draw_polyline(hook, color, width)
		x += s * 1.5
