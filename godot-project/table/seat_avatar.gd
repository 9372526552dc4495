class_name SeatAvatar
extends Control
## A seat's face: a round procedural avatar (a person, or a small robot for an AI seat) in a ring
## of its team's colour; while the seat has the turn the ring runs down as its countdown; a medal
## shows its finishing place (头游 … 末游). Colours and sizes come from SeatStyle.current().

## Which seat (team colour: 0/2 one team, 1/3 the other).
var seat := 0:
	set(v):
		seat = v
		queue_redraw()
## Picks the face (the same key, the same face): a name's hash, or the seat.
var face_key := 0:
	set(v):
		face_key = v
		queue_redraw()
var ai := false:
	set(v):
		ai = v
		queue_redraw()
## Fraction of the turn's time left, 1 → 0; below 0 the countdown ring is not drawn.
var countdown := -1.0:
	set(v):
		if not is_equal_approx(v, countdown):
			countdown = v
			queue_redraw()
## Finishing place 1–4, 0 = none yet.
var place := 0:
	set(v):
		place = v
		queue_redraw()
## Out of cards (finished): the face is drawn faded.
var out := false:
	set(v):
		out = v
		queue_redraw()

## A size of its own (lp) instead of the style's avatar size: the portraits in lists' rows.
var fixed_size := Vector2.ZERO:
	set(v):
		fixed_size = v
		if _style != null:
			_restyle()

var _style: SeatStyle


func _ready() -> void:
	_style = SeatStyle.current()
	_style.changed.connect(_restyle)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_restyle()


func _exit_tree() -> void:
	if _style != null and _style.changed.is_connected(_restyle):
		_style.changed.disconnect(_restyle)


func _enter_tree() -> void:
	if _style != null and not _style.changed.is_connected(_restyle):
		_style.changed.connect(_restyle)


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		queue_redraw()


func _restyle() -> void:
	custom_minimum_size = fixed_size if fixed_size != Vector2.ZERO else Vector2.ONE * _style.avatar_size
	queue_redraw()


## The colour the ring is drawn in now (team colour; tests read it).
func ring_color() -> Color:
	return _style.team_color(seat) if _style != null else Color.WHITE


func _draw() -> void:
	if _style == null:
		return
	var st := _style
	var c := size * 0.5
	var outer := minf(size.x, size.y) * 0.5
	var inner := outer - st.ring_width
	var fade := 0.45 if out else 1.0
	draw_circle(c, outer, Color(st.team_color(seat), fade))
	draw_circle(c, inner, Color(SeatStyle.pick(st.backgrounds, face_key), fade))
	if ai:
		_draw_robot(c, inner, fade)
	else:
		_draw_person(c, inner, fade)
	if countdown >= 0.0:
		var frac := clampf(countdown, 0.0, 1.0)
		var col := st.countdown_warn_color if frac < st.countdown_warn_fraction else st.countdown_color
		var r := outer - st.countdown_width * 0.5
		draw_arc(c, r, 0.0, TAU, 64, Color(0, 0, 0, 0.45), st.countdown_width, true)
		if frac > 0.0:
			draw_arc(c, r, -PI / 2.0, -PI / 2.0 + TAU * frac, 64, col, st.countdown_width, true)
	if place > 0:
		_draw_medal(c + Vector2(0.68, 0.68) * outer, outer * 0.38)


## Head, hair and shoulders, kept inside the disc of radius `r`.
func _draw_person(c: Vector2, r: float, fade: float) -> void:
	var st := _style
	var k := absi(face_key)
	var skin := Color(SeatStyle.pick(st.skins, k / 3), fade)
	var hair := Color(SeatStyle.pick(st.hair_colors, k / 5), fade)
	var clothes := Color(SeatStyle.pick(st.clothes_colors, k / 7), fade)
	draw_colored_polygon(_inside(c, r, c + Vector2(0, r * 0.95), r * 0.7), clothes)
	var head := c + Vector2(0, -r * 0.12)
	var hr := r * 0.36
	match k % 3:
		0:  # short hair: a cap over the head
			draw_circle(head + Vector2(0, -hr * 0.12), hr * 1.08, hair)
		1:  # a bun
			draw_circle(head + Vector2(0, -hr * 1.05), hr * 0.42, hair)
			draw_circle(head + Vector2(0, -hr * 0.1), hr * 1.06, hair)
		_:  # side hair, longer
			draw_colored_polygon(_inside(c, r, head + Vector2(0, hr * 0.25), hr * 1.2), hair)
	draw_circle(head + Vector2(0, hr * 0.1), hr * 0.92, skin)
	var eye := Color(0.12, 0.1, 0.1, fade)
	draw_circle(head + Vector2(-hr * 0.35, hr * 0.1), maxf(hr * 0.1, 1.2), eye)
	draw_circle(head + Vector2(hr * 0.35, hr * 0.1), maxf(hr * 0.1, 1.2), eye)
	draw_arc(head + Vector2(0, hr * 0.35), hr * 0.28, 0.35, PI - 0.35, 12, eye, maxf(hr * 0.07, 1.0), true)


## A small robot: a rounded head with two lit eyes and an antenna.
func _draw_robot(c: Vector2, r: float, fade: float) -> void:
	var st := _style
	var face := Color(st.ai_face_color, fade)
	draw_colored_polygon(_inside(c, r, c + Vector2(0, r * 1.0), r * 0.66), Color(face.darkened(0.35), fade))
	var w := r * 0.9
	var h := r * 0.7
	var top := c + Vector2(-w * 0.5, -r * 0.45)
	var box := StyleBoxFlat.new()
	box.bg_color = face
	box.set_corner_radius_all(int(r * 0.18))
	box.anti_aliasing = true
	draw_style_box(box, Rect2(top, Vector2(w, h)))
	var antenna := c + Vector2(0, -r * 0.45)
	draw_line(antenna, antenna + Vector2(0, -r * 0.22), face, maxf(r * 0.06, 1.0), true)
	draw_circle(antenna + Vector2(0, -r * 0.26), r * 0.08, Color(st.team_color(seat), fade))
	var eye := Color(st.team_color(seat).lightened(0.3), fade)
	draw_circle(top + Vector2(w * 0.3, h * 0.42), r * 0.1, eye)
	draw_circle(top + Vector2(w * 0.7, h * 0.42), r * 0.1, eye)
	draw_line(top + Vector2(w * 0.3, h * 0.75), top + Vector2(w * 0.7, h * 0.75), Color(0.15, 0.17, 0.2, fade), maxf(r * 0.05, 1.0))


func _draw_medal(at: Vector2, r: float) -> void:
	var col := SeatStyle.pick(_style.medal_colors, place - 1)
	draw_circle(at, r + 2.0, Color(0, 0, 0, 0.55))
	draw_circle(at, r, col)
	draw_arc(at, r * 0.8, 0.0, TAU, 32, col.lightened(0.35), maxf(r * 0.08, 1.0), true)
	var font := get_theme_font(&"font", &"Label")
	var text := tr("MEDAL_%d" % clampi(place, 1, 4))
	var fs := int(r * 1.15)
	var ts := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs)
	draw_string(font, at + Vector2(-ts.x * 0.5, fs * 0.36), text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs, Color(0.1, 0.08, 0.05))


## The points of the circle (centre `at`, radius `rad`) pulled inside the disc (c, r): a shape
## cut by the avatar's edge.
func _inside(c: Vector2, r: float, at: Vector2, rad: float) -> PackedVector2Array:
	var pts := PackedVector2Array()
	for i in 40:
		var p := at + Vector2.from_angle(TAU * i / 40.0) * rad
		var d := p - c
		if d.length() > r:
			p = c + d.normalized() * r
		pts.append(p)
	return pts
