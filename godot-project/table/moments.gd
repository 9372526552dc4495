class_name Moments
extends Control
## The table's big moments, drawn over the table (input passes through):
## - a play names itself with a short word-art label at its slot (顺子, 三带二, 炸弹, 同花顺 …);
##   singles, pairs and triples stay quiet;
## - a bomb adds a flash, a shockwave and sparks that grow with its card count, a straight flush
##   hits harder, four jokers add a gold burst. The shake itself is the table's (TableEvents).
## - the big moments among them (a bomb of TableStyle.big_bomb_min_cards or more, a straight flush,
##   four jokers) take the whole table instead (BigMoment: the name large across the middle, the
##   felt dimmed, the rim swept with light) and ask the table's flow to hold (`freeze_s`).
## Low-performance mode (or animations off) keeps only the label. Every colour, size and strength
## is in TableStyle ("Moments"), every time in PacingProfile (word_art_s, bomb_effect_s,
## big_moment_s, big_moment_freeze_s).

## How much more covering the play itself or a seat / the plaque weighs than covering another play.
const HARD := 50.0
## Play kinds that do not name themselves (their name_key).
const QUIET := ["play.single", "play.pair", "play.trips"]

## Times (word_art_s, bomb_effect_s); the table gives its own.
var pacing: PacingProfile = preload("res://resources/style/pacing_default.tres")
## The last effect started, for tests: {} or {size, kind, flash, shockwave, particles, burst, shake}.
var last_effect := {}
## How long the last play asked the table's flow to hold for its big moment (0: none).
var freeze_s := 0.0
## The full-table effect of the big moments.
var big := BigMoment.new()
## The fireworks of a match won (over the big moment's dimmed felt).
var fireworks := Fireworks.new()

var _label := UiKit.overlay_text(&"WordArt")
var _label_tween: Tween
var _fx_tween: Tween
## Effect progress 0..1 (drives _draw) and what is being drawn.
var _t := 1.0
var _centre := Vector2.ZERO
var _radius := 0.0
var _flash := Color(0, 0, 0, 0)
var _burst := Color(0, 0, 0, 0)
var _sparks: Array[Vector3] = []  # (angle, speed share, size)


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_label.modulate.a = 0.0
	add_child(_label)
	big.name = &"BigMoment"
	add_child(big)
	fireworks.name = &"Fireworks"
	add_child(fireworks)


## The word-art a play shows, or "" for a quiet one.
static func word_for(play: Play) -> String:
	var key := play.name_key
	if key == "" or key in QUIET:
		return ""
	return TranslationServer.translate(key)


## Whether a play is a big moment: &"four_jokers", &"straight_flush", &"big_bomb" (a bomb of
## TableStyle.big_bomb_min_cards or more) or &"" (not one).
static func big_kind(play: Play) -> StringName:
	var type := play.kind
	if type == "FourKings":
		return &"four_jokers"
	if type == "StraightFlush":
		return &"straight_flush"
	var n := play.size
	if play.bomb and n >= TableStyle.current().big_bomb_min_cards:
		return &"big_bomb"
	return &""


## A play landed over `slot` (this node's coordinates): names it beside its cards, clear of the
## `keep_off` rectangles (this node's coordinates: the seats, their chips, the plaque — never
## covered while any place is free) and if it can of the `avoid` ones (the other plays, the bars,
## the hand), and if it is a bomb starts the effect. Returns the shake strength (px) the table
## should give it (0: none). A big moment names itself across the table instead (`rim`: the
## felt's oval, this node's coordinates) and sets `freeze_s`.
func on_play(play: Play, slot: Rect2, keep_off: Array[Rect2] = [], avoid: Array[Rect2] = [],
		rim := Rect2(), ring_clear: Array[Rect2] = []) -> float:
	var word := word_for(play)
	var bomb := play.bomb
	freeze_s = 0.0
	if word != "" and big_kind(play) != &"" and BigMoment.wanted():
		_label.visible = false
		freeze_s = big.start(word, slot, rim, keep_off, pacing)
	elif word != "":
		_show_word(word, slot, bomb, keep_off, avoid)
	if not bomb:
		return 0.0
	return _bomb(play, slot.get_center(), ring_clear)


## The word-art on screen (beside the play, or a big moment's name across the table), or "".
func word_shown() -> String:
	if big.title_shown() != "":
		return big.title_shown()
	return _label.text if _label.visible and _label.modulate.a > 0.0 else ""


## Whether a bomb effect is being drawn.
func effect_running() -> bool:
	return _fx_tween != null and _fx_tween.is_running()


## The bomb effect's centre (this node's coordinates; tests).
func effect_centre() -> Vector2:
	return _centre


## How far from its centre the bomb effect ever draws (px, this node's coordinates; 0 when none
## runs): the ring's outer edge, the sparks' flight, the gold burst.
func effect_reach() -> float:
	if not effect_running():
		return 0.0
	var far := 1.1 if not _sparks.is_empty() else 1.0
	if _burst.a > 0.0:
		far = 1.2
	return _radius * far + 7.0


## Stops everything at once (the table is left or rebuilt).
func clear() -> void:
	for tw: Tween in [_label_tween, _fx_tween]:
		if tw != null:
			tw.kill()
	_label.modulate.a = 0.0
	_label.visible = false
	big.clear()
	freeze_s = 0.0
	_t = 1.0
	_sparks.clear()
	queue_redraw()


func _show_word(word: String, slot: Rect2, bomb: bool, keep_off: Array[Rect2], avoid: Array[Rect2]) -> void:
	var st := TableStyle.current()
	var hold := PacingProfile.scaled(pacing.word_art_s)
	if hold <= 0.0:
		return
	var fs := int(st.word_art_font_size * (st.word_art_bomb_scale if bomb else 1.0))
	_label.text = word
	_label.add_theme_font_size_override(&"font_size", fs)
	if st.word_art_font != null:
		_label.add_theme_font_override(&"font", st.word_art_font)
	_label.add_theme_color_override(&"font_color", st.word_art_color)
	_label.add_theme_color_override(&"font_outline_color", st.word_art_outline_color)
	_label.add_theme_constant_override(&"outline_size", st.word_art_outline_size)
	# Beside the play, never on it: the first free place, shrinking the word if none is free.
	var spot := word_spot(slot, keep_off, avoid, fs, st)
	_label.add_theme_font_size_override(&"font_size", int(spot[1]))
	_label.reset_size()
	var sz := _label.get_combined_minimum_size()
	_label.size = sz
	_label.position = spot[0]
	_label.pivot_offset = sz / 2.0
	_label.visible = true
	_label.modulate.a = 1.0
	if _label_tween != null:
		_label_tween.kill()
	_label_tween = create_tween()
	if Settings.effects_on():
		_label.scale = Vector2.ONE * 0.6
		_label_tween.tween_property(_label, "scale", Vector2.ONE, hold * 0.2) \
				.set_trans(Tween.TRANS_BACK).set_ease(Tween.EASE_OUT)
		_label_tween.tween_interval(hold * 0.5)
	else:
		_label.scale = Vector2.ONE
		_label_tween.tween_interval(hold * 0.7)
	_label_tween.tween_property(_label, "modulate:a", 0.0, hold * 0.3)
	_label_tween.tween_callback(func() -> void: _label.visible = false)


## Where the word-art goes for a play over `slot`: [position, font size]. Tries the sides of the
## play in TableStyle.word_art_sides order (toward the table's centre first), each at the full size
## and then smaller (word_art_shrink_steps down to word_art_min_scale), inside this node; the
## first place that covers neither the play nor a `keep_off` nor an `avoid` rectangle wins, else
## the place that covers least, the play and `keep_off` counting far more than `avoid`.
func word_spot(slot: Rect2, keep_off: Array[Rect2], avoid: Array[Rect2], font_size: int, st: TableStyle) -> Array:
	var font: Font = _label.get_theme_font(&"font")
	var outline := float(st.word_art_outline_size)
	var gap := st.word_art_gap
	var centre := size / 2.0
	var toward_x := 1.0 if slot.get_center().x < centre.x else -1.0
	var toward_y := 1.0 if slot.get_center().y < centre.y else -1.0
	var best := [slot.position, font_size]
	var best_cover := INF
	var steps := maxi(st.word_art_shrink_steps, 1)
	for step in steps:
		var k := lerpf(1.0, st.word_art_min_scale, float(step) / maxf(steps - 1, 1))
		var fs := maxi(int(font_size * k), 8)
		var sz := font.get_string_size(_label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs) + Vector2(outline, outline)
		sz.y = maxf(sz.y, font.get_height(fs) + outline)
		for side in st.word_art_sides:
			var pos := _beside(slot, sz, side, toward_x, toward_y, gap)
			pos.x = clampf(pos.x, 0.0, maxf(size.x - sz.x, 0.0))
			pos.y = clampf(pos.y, 0.0, maxf(size.y - sz.y, 0.0))
			var r := Rect2(pos, sz)
			var cover := _covered(r, slot) * HARD
			for other in keep_off:
				cover += _covered(r, other) * HARD
			for other in avoid:
				cover += _covered(r, other)
			if cover < best_cover - 0.5:
				best_cover = cover
				best = [pos, fs]
			if cover <= 0.0:
				return best
	return best


## The top-left of a word of size `sz` on `side` of `slot`: "inward" (toward the centre
## horizontally), "outward", "centreward" (toward the centre vertically) or "away".
static func _beside(slot: Rect2, sz: Vector2, side: StringName, toward_x: float, toward_y: float, gap: float) -> Vector2:
	var mid := slot.get_center() - sz / 2.0
	match side:
		&"inward", &"outward":
			var dir := toward_x if side == &"inward" else -toward_x
			return Vector2(slot.end.x + gap if dir > 0.0 else slot.position.x - gap - sz.x, mid.y)
		_:
			var dir := toward_y if side == &"centreward" else -toward_y
			return Vector2(mid.x, slot.end.y + gap if dir > 0.0 else slot.position.y - gap - sz.y)


## Area of `r` that `other` covers (a shared edge does not count).
static func _covered(r: Rect2, other: Rect2) -> float:
	var i := r.grow(-1.0).intersection(other.grow(-1.0))
	return i.get_area() if i.size.x > 0.0 and i.size.y > 0.0 else 0.0


## A bomb's flash, ring and sparks from `at`; the ring and sparks stop short of every `clear`
## rectangle (the seats, the plaque: issue 54 saw a bomb's ring on West's seat).
func _bomb(play: Play, at: Vector2, clear: Array[Rect2] = []) -> float:
	var st := TableStyle.current()
	var type := play.kind
	var n := maxi(play.size, 4)
	var four_jokers := type == "FourKings"
	var boost := st.straight_flush_boost if type == "StraightFlush" else 1.0
	if four_jokers:
		boost = st.straight_flush_boost * 1.25
	var extra := float(n - 4)
	var shake := st.four_jokers_shake_px if four_jokers else (st.shake_px + st.shake_per_card_px * extra) * boost
	var effects := Settings.effects_on()
	last_effect = {size = n, kind = type, flash = effects, shockwave = effects, burst = effects and four_jokers,
		particles = int((st.bomb_particles + st.bomb_particles_per_card * extra) * boost) if effects else 0,
		shake = shake if effects else 0.0}
	if not effects:
		return 0.0
	var dur := PacingProfile.scaled(pacing.bomb_effect_s)
	if dur <= 0.0:
		return shake
	_centre = at
	_radius = size.y * (st.shockwave_radius + st.shockwave_growth * extra) * boost
	var room := INF
	for r in clear:
		room = minf(room, _distance(at, r))
	if room < INF:
		_radius = clampf((room - 8.0) / (1.2 if four_jokers else 1.1), 0.0, _radius)
	_flash = st.bomb_flash_color
	_flash.a = clampf(_flash.a * (1.0 + 0.15 * extra) * boost, 0.0, 0.9)
	_burst = st.gold_burst_color if four_jokers else Color(0, 0, 0, 0)
	_sparks.clear()
	for i in int(last_effect.particles):
		_sparks.append(Vector3(randf() * TAU, randf_range(0.45, 1.1), randf_range(2.0, 5.0) * boost))
	if _fx_tween != null:
		_fx_tween.kill()
	_fx_tween = create_tween()
	_fx_tween.tween_method(_step, 0.0, 1.0, dur)
	return shake


## Distance from `p` to the nearest point of `r` (0 inside).
static func _distance(p: Vector2, r: Rect2) -> float:
	return p.distance_to(Vector2(clampf(p.x, r.position.x, r.end.x), clampf(p.y, r.position.y, r.end.y)))


func _step(t: float) -> void:
	_t = t
	queue_redraw()


func _draw() -> void:
	if _t >= 1.0:
		return
	var st := TableStyle.current()
	var fade := 1.0 - _t
	# The flash: the whole table, fading fast.
	if _flash.a > 0.0:
		var f := _flash
		f.a *= fade * fade
		draw_rect(Rect2(Vector2.ZERO, size), f)
	# The gold burst (four jokers): a glowing disc that swells.
	if _burst.a > 0.0:
		var b := _burst
		b.a *= fade
		draw_circle(_centre, _radius * (0.3 + 0.9 * _t), b)
	# The shockwave: a ring that widens and thins.
	var ring := st.shockwave_color
	ring.a *= fade
	var r := _radius * (0.15 + 0.85 * sqrt(_t))
	draw_arc(_centre, r, 0.0, TAU, 64, ring, maxf(14.0 * fade, 1.0), true)
	# Sparks flying out.
	var spark := st.particle_color
	spark.a *= fade
	for s in _sparks:
		var p := _centre + Vector2.from_angle(s.x) * _radius * s.y * _t
		draw_circle(p, s.z * (0.4 + fade), spark)
