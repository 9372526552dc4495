class_name Fireworks
extends Control
## Fireworks over the felt when the player's side wins the match (the visual brief's "fireworks
## on wins"; ResultEvents starts them with the match won's big moment, and they go on behind the
## end screen): bursts one after another at places on the felt clear of the seats and the
## plaque, each a short rising trail that opens into a ring of sparks, which fall a little and
## fade. Drawn, no textures; input passes through. Never in low-performance mode or with
## animations off. Counts, size and colours: TableStyle "Fireworks"; time: PacingProfile
## fireworks_s.

## Of a burst's life, the share its trail rises before it opens.
const RISE := 0.22
## Of the whole show, the share over which the bursts are launched (the last one still has the
## rest to open and fade).
const LAUNCH_SPAN := 0.55
## Places tried for a burst at each size before a smaller one is tried (every place covered a
## seat or left the felt).
const TRIES := 24
## The sizes tried, as shares of TableStyle.fireworks_radius; a burst with no room at the last is
## left out.
const SHRINK: Array[float] = [1.0, 0.8, 0.62, 0.48]

## The last show started, for tests: {} or {bursts: [{at, radius, color}], seconds}.
var last := {}

var _bursts: Array[Dictionary] = []  # {at, radius, color, start (0–1 of the show), sparks}
var _t := 1.0
var _tween: Tween


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE


## Whether fireworks are shown at all (effects on: not low-performance, animations on).
static func wanted() -> bool:
	return Settings.effects_on() and PacingProfile.scaled(1.0) > 0.0


## Starts the show over `felt` (this node's coordinates: the felt's oval's box) with no burst
## over any of `keep_off` (the seats, the plaque), and none launched in the first `early_s`
## seconds over `early` (the big moment's name while it shows). Returns how many bursts were
## placed (0: none shown — low-performance mode, animations off, or no room).
func start(felt: Rect2, keep_off: Array[Rect2], pacing: PacingProfile, early := Rect2(), early_s := 0.0) -> int:
	clear()
	if not wanted() or not felt.has_area():
		return 0
	var seconds := PacingProfile.scaled(pacing.fireworks_s)
	var st := TableStyle.current()
	if seconds <= 0.0 or st.fireworks_bursts <= 0 or st.fireworks_colors.is_empty():
		return 0
	var with_early := keep_off.duplicate()
	with_early.append(early)
	for i in st.fireworks_bursts:
		var launch := LAUNCH_SPAN * i / maxf(st.fireworks_bursts - 1, 1)
		var clear_of := with_early if early.has_area() and launch * seconds < early_s else keep_off
		# Smaller where the full size finds no room (a crowded or narrow table).
		var radius := size.y * st.fireworks_radius
		var at := Vector2(INF, INF)
		for shrink: float in SHRINK:
			at = place(felt, clear_of, radius * shrink)
			if at.x != INF:
				radius *= shrink
				break
		if at.x == INF:
			continue
		var sparks: Array[Vector3] = []  # (angle, speed share, size)
		for k in st.fireworks_sparks:
			var a := TAU * k / st.fireworks_sparks + randf_range(-0.08, 0.08)
			sparks.append(Vector3(a, randf_range(0.7, 1.05), randf_range(2.4, 4.2)))
		_bursts.append({at = at, radius = radius, color = st.fireworks_colors[i % st.fireworks_colors.size()],
			start = launch, sparks = sparks})
	last = {seconds = seconds, bursts = _bursts.map(func(b: Dictionary) -> Dictionary:
		return {at = b.at, radius = b.radius, color = b.color, launch_s = float(b.start) * seconds})}
	if _bursts.is_empty():
		return 0
	_tween = create_tween()
	_tween.tween_method(_step, 0.0, 1.0, seconds)
	_tween.tween_callback(clear)
	return _bursts.size()


## A burst's centre inside the felt's oval (the ring and its fall inside it too) whose ring
## covers none of `keep_off`; Vector2(INF, INF) when no place tried was free.
func place(felt: Rect2, keep_off: Array[Rect2], radius: float) -> Vector2:
	var centre := felt.get_center()
	var half := felt.size / 2.0
	for i in TRIES:
		var p := centre + Vector2(randf_range(-1.0, 1.0) * half.x * 0.8, randf_range(-0.8, 0.5) * half.y)
		var ring := ring_box(p, radius)
		var inside := true
		for edge in [Vector2(ring.position.x, p.y), Vector2(ring.end.x, p.y), Vector2(p.x, ring.position.y),
				Vector2(p.x, ring.end.y)]:
			var d: Vector2 = (edge - centre) / half
			inside = inside and d.length_squared() <= 1.0
		if not inside or not felt.encloses(ring):
			continue
		var free := true
		for r in keep_off:
			if ring.intersects(r):
				free = false
				break
		if free:
			return p
	return Vector2(INF, INF)


## The box a burst at `at` of `radius` draws in: its ring (sparks fly up to 1.05 radii), their
## fall below it and the trail rising from 1.55 radii under it.
static func ring_box(at: Vector2, radius: float) -> Rect2:
	return Rect2(at - Vector2(radius, radius) * 1.05, Vector2(radius * 2.1, radius * 2.6))


## Whether a show is on.
func running() -> bool:
	return _tween != null and _tween.is_running()


## Stops at once (the table is left, or another show starts).
func clear() -> void:
	if _tween != null:
		_tween.kill()
	_tween = null
	_bursts.clear()
	_t = 1.0
	queue_redraw()


func _step(t: float) -> void:
	_t = t
	queue_redraw()


func _draw() -> void:
	var life := 1.0 - LAUNCH_SPAN
	for b in _bursts:
		var u: float = (_t - float(b.start)) / life
		if u <= 0.0 or u >= 1.0:
			continue
		var at: Vector2 = b.at
		var radius: float = b.radius
		var color: Color = b.color
		if u < RISE:
			# The trail: a short streak rising to where it opens.
			var k := u / RISE
			var head := at + Vector2(0.0, radius * 1.2 * (1.0 - k))
			var tail := head + Vector2(0.0, radius * 0.35)
			draw_line(tail, head, Color(color, 0.35 + 0.5 * k), 3.0, true)
			continue
		var v := (u - RISE) / (1.0 - RISE)
		var out := 1.0 - pow(1.0 - v, 3.0)  # fast out, slowing
		var fall := Vector2(0.0, radius * 0.3 * v * v)
		var fade := 1.0 - v
		# A flash where it opens, gone quickly.
		if v < 0.2:
			draw_circle(at, radius * 0.18 * (1.0 - v / 0.2), Color(1, 1, 1, 0.6 * (1.0 - v / 0.2)))
		for s: Vector3 in b.sparks:
			var dir := Vector2.from_angle(s.x)
			var p := at + dir * radius * s.y * out + fall
			var trail := at + dir * radius * s.y * out * 0.82 + fall
			draw_line(trail, p, Color(color, 0.5 * fade), s.z * 0.6, true)
			draw_circle(p, s.z * 2.2, Color(color, 0.18 * fade))  # its glow
			draw_circle(p, s.z * (0.5 + 0.5 * fade), Color(color, fade))
