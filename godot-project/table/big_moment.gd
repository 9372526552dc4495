class_name BigMoment
extends Control
## A big moment over the whole table (Moments starts it for a big bomb, a straight flush and four
## jokers; ResultEvents for 双下 and the match won): the felt dims except under the play, the
## moment's name stands large across the table's middle (shrunk or moved until it covers no
## seat, chip, the plaque or the play), a light runs once round the rim and the play glows.
## Short (PacingProfile big_moment_s); the table's flow holds meanwhile (big_moment_freeze_s,
## TableEvents.freeze).
## Never in low-performance mode or with animations off. Colours and sizes: TableStyle "Moments".

## Where the name may go, tried in order: the middle, then a little above and below it (shares of
## the table's height).
const TITLE_ROWS: Array[float] = [0.0, -0.12, 0.12, -0.22, 0.22]
## Steps between the full size and the smallest.
const TITLE_STEPS := 8
## Points along each piece of the rim's light.
const RIM_POINTS := 12

## The last moment started, for tests: {} or {title, freeze, title_rect (this node's coordinates)}.
var last := {}
## What fades out while a moment shows and comes back after (the table's status line: the name
## would stand on it).
var hushed: Array[CanvasItem] = []

var _title := UiKit.overlay_text(&"Title")
var _tween: Tween
var _t := 1.0
var _play := Rect2()  # the play lit and glowing (this node's coordinates; empty: none)
var _rim := Rect2()  # the felt's oval (this node's coordinates; empty: no sweep)
var _covers: Array[Rect2] = []  # what the rim's light passes behind: the seats, the top bar


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_title.visible = false
	add_child(_title)


## Whether big moments are shown at all (effects on: not low-performance, animations on).
static func wanted() -> bool:
	return Settings.effects_on() and PacingProfile.scaled(1.0) > 0.0


## Starts the moment named `title` (this node's coordinates: `play` the cards to light, `rim` the
## felt's oval, `keep_off` what the name never covers). Returns how long the table's flow should
## hold (0: not shown — low-performance mode or animations off).
func start(title: String, play: Rect2, rim: Rect2, keep_off: Array[Rect2], pacing: PacingProfile) -> float:
	if not wanted():
		return 0.0
	var dur := PacingProfile.scaled(pacing.big_moment_s)
	if dur <= 0.0:
		return 0.0
	var st := TableStyle.current()
	_play = play
	_rim = rim
	_covers = keep_off.duplicate()
	_title.text = title
	_title.add_theme_color_override(&"font_color", st.big_moment_title_color)
	_title.add_theme_color_override(&"font_outline_color", st.big_moment_title_outline_color)
	_title.add_theme_constant_override(&"outline_size", st.big_moment_title_outline_size)
	if st.word_art_font != null:
		_title.add_theme_font_override(&"font", st.word_art_font)
	# Clear of the seats and the plaque, and of the play it celebrates.
	var clear_of := keep_off.duplicate()
	if play.has_area():
		clear_of.append(play.grow(st.word_art_gap))
	var spot := title_spot(title, rim if rim.has_area() else Rect2(Vector2.ZERO, size), clear_of, st)
	_title.add_theme_font_size_override(&"font_size", int(spot[1]))
	_title.reset_size()
	var sz := _title.get_combined_minimum_size()
	_title.size = sz
	_title.position = Vector2(spot[0]) - sz / 2.0
	_title.pivot_offset = sz / 2.0
	_title.visible = true
	_title.modulate.a = 0.0
	var freeze := PacingProfile.scaled(pacing.big_moment_freeze_s)
	last = {title = title, freeze = freeze, title_rect = Rect2(_title.position, sz)}
	if _tween != null:
		_tween.kill()
	_tween = create_tween()
	_tween.tween_method(_step, 0.0, 1.0, dur)
	# The name, beside the drawing: grows into place (never past it: its place is the one kept
	# clear), held, out.
	_title.scale = Vector2.ONE * 0.8
	_tween.parallel().tween_property(_title, "scale", Vector2.ONE, dur * 0.2) \
			.set_trans(Tween.TRANS_BACK).set_ease(Tween.EASE_OUT)
	_tween.parallel().tween_property(_title, "modulate:a", 1.0, dur * 0.15)
	_tween.parallel().tween_property(_title, "modulate:a", 0.0, dur * 0.25).set_delay(dur * 0.75)
	for item in hushed:
		_tween.parallel().tween_property(item, "modulate:a", 0.0, dur * 0.15)
		_tween.parallel().tween_property(item, "modulate:a", 1.0, dur * 0.25).set_delay(dur * 0.75)
	_tween.chain().tween_callback(_end)
	return freeze


## Whether a moment is being shown.
func running() -> bool:
	return _tween != null and _tween.is_running()


## The name across the table, or "" (tests, screenshots).
func title_shown() -> String:
	return _title.text if _title.visible else ""


## How strongly the name shows now (0–1; tests).
func title_alpha() -> float:
	return _title.modulate.a if _title.visible else 0.0


## The name's place at full size (global; empty when none is shown).
func title_global_rect() -> Rect2:
	return get_global_transform() * Rect2(_title.position, _title.size) if _title.visible else Rect2()


## Stops at once (the table is left, or the next moment starts).
func clear() -> void:
	if _tween != null:
		_tween.kill()
	_end()


## Where the name goes: [its centre, font size]. Centred on `area`'s middle (a row of TITLE_ROWS),
## the largest size from big_moment_title_font_size down to its min scale whose box covers none
## of `keep_off` and stays inside this node; else the smallest size in the middle.
func title_spot(title: String, area: Rect2, keep_off: Array[Rect2], st: TableStyle) -> Array:
	var font: Font = st.word_art_font if st.word_art_font != null else get_theme_default_font()
	var outline := float(st.big_moment_title_outline_size)
	var centre := area.get_center()
	var whole := Rect2(Vector2.ZERO, size)
	var smallest := maxi(int(st.big_moment_title_font_size * st.big_moment_title_min_scale), 8)
	for step in TITLE_STEPS:
		var k := lerpf(1.0, st.big_moment_title_min_scale, float(step) / (TITLE_STEPS - 1))
		var fs := maxi(int(st.big_moment_title_font_size * k), 8)
		var sz := font.get_string_size(title, HORIZONTAL_ALIGNMENT_LEFT, -1, fs) + Vector2(outline, outline)
		sz.y = maxf(sz.y, font.get_height(fs) + outline)
		for row in TITLE_ROWS:
			var r := Rect2(centre + Vector2(0.0, area.size.y * row) - sz / 2.0, sz)
			if not whole.encloses(r):
				continue
			var free := true
			for other in keep_off:
				if r.grow(-1.0).intersects(other.grow(-1.0)):
					free = false
					break
			if free:
				return [r.get_center(), fs]
	return [centre, smallest]


func _step(t: float) -> void:
	_t = t
	queue_redraw()


func _end() -> void:
	_t = 1.0
	_title.visible = false
	for item in hushed:
		if is_instance_valid(item):
			item.modulate.a = 1.0
	queue_redraw()


## 0 → 1 quickly, held, → 0 at the end.
func _envelope() -> float:
	return minf(minf(_t / 0.15, 1.0), minf((1.0 - _t) / 0.3, 1.0))


func _draw() -> void:
	if _t >= 1.0:
		return
	var st := TableStyle.current()
	var e := _envelope()
	# The felt dims, except over the play (four bands round it).
	var dim := st.big_moment_dim_color
	dim.a *= e
	var all := Rect2(Vector2.ZERO, size)
	if _play.has_area():
		var p := _play.grow(8.0).intersection(all)
		draw_rect(Rect2(0, 0, size.x, p.position.y), dim)
		draw_rect(Rect2(0, p.end.y, size.x, size.y - p.end.y), dim)
		draw_rect(Rect2(0, p.position.y, p.position.x, p.size.y), dim)
		draw_rect(Rect2(p.end.x, p.position.y, size.x - p.end.x, p.size.y), dim)
		# The play's glow: soft frames widening outward.
		var glow := st.big_moment_glow_color
		for i in 4:
			var g := glow
			g.a *= e * (1.0 - i / 4.0) * 0.6
			draw_rect(_play.grow(4.0 + i * 5.0), g, false, 5.0)
	else:
		draw_rect(all, dim)
	# A light running once round the rim from the top, both ways, fading at its tail.
	for piece in sweep(_t):
		var c := st.big_moment_sweep_color
		c.a *= e * float(piece.fade)
		draw_polyline(piece.points, c, st.big_moment_sweep_width, true)


## The rim's light at progress `t` (0–1): pieces {points (this node's coordinates), fade 0–1}
## running from the top both ways, the head brightest. It passes behind the seats and the top
## bar: a piece is split where it would cross one (tests check none does).
func sweep(t: float) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	if not _rim.has_area():
		return out
	var st := TableStyle.current()
	var width := st.big_moment_sweep_width
	var radii := _rim.size / 2.0 + Vector2.ONE * width * 0.5
	var centre := _rim.get_center()
	var head := -PI / 2.0 + t * PI
	var span := st.big_moment_sweep_share * TAU
	for dir: float in [1.0, -1.0]:
		for i in 6:
			var a0: float = -PI / 2.0 + dir * (head + PI / 2.0 - span * i / 6.0)
			var a1: float = -PI / 2.0 + dir * (head + PI / 2.0 - span * (i + 1) / 6.0)
			var run := PackedVector2Array()
			for k in RIM_POINTS + 1:
				var a := lerpf(a0, a1, float(k) / RIM_POINTS)
				var p := centre + Vector2(cos(a) * radii.x, sin(a) * radii.y)
				if _behind(p, width):
					if run.size() >= 2:
						out.append({points = run, fade = 1.0 - i / 6.0})
					run = PackedVector2Array()
				else:
					run.append(p)
			if run.size() >= 2:
				out.append({points = run, fade = 1.0 - i / 6.0})
	return out


## Whether the rim's light at `p` would cross a seat or the top bar.
func _behind(p: Vector2, width: float) -> bool:
	for r in _covers:
		if r.grow(width * 0.5).has_point(p):
			return true
	return false
