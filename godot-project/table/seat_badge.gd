class_name SeatBadge
extends PanelContainer
## One seat at the table as the others see it: a round avatar in its team's colour (SeatAvatar),
## a chip with the number of cards left (red at the warning count; no per-card nodes for hidden
## hands), the finishing place (a medal on the avatar and a line), "thinking…", a turn highlight,
## the seat's countdown as a ring around the avatar, and during auto-play (托管) a blinking border
## and "AI Auto-Play".

const ACTIVE_BORDER := Color(1.0, 0.84, 0.3)
const WARN_COLOR := Color(1.0, 0.45, 0.35)
const AUTO_PLAY_COLOR := Color(0.35, 0.8, 1.0)
## Least width (the scene's minimum size): "Level 10 · Normal" and, while thinking, "Level 10 ·
## thinking…" whole at 1280×720 (tests/godot/ui/test_table_hour.gd). Larger text (a phone's font
## floor, a longer language) widens the badge to its content (_fit_width). A stacked seat is as
## wide as its portrait and fan or its widest line.
const WIDTH := 232.0
## How far (px) and how much larger a finisher's portrait steps forward at the end of a deal.
const STEP_PX := 18.0
const STEP_SCALE := 1.18
## The name lines' spacing under the portrait (px): their boxes are taller than their letters.
const LINE_GAP_STACKED := -6

## Which seat (0 = the player, 1 east, 2 north partner, 3 west); set in the scene or by create().
@export_range(0, 3) var seat := 0
## Shows the cards-left chip (off for the player's own badge and in replays).
@export var with_back := true
## The seat's shape: true = the name lines under the portrait, starting at its outer edge (the
## genre's seat at the felt's edge; the table stacks every seat its bands leave room for); false =
## the portrait with its fan of backs, then the name lines beside them (a short view).
@export var stacked := false:
	set(v):
		stacked = v
		_apply_shape()
## The fan of backs on the portrait's left (East: toward the table's centre) rather than its right.
@export var fan_left := false:
	set(v):
		fan_left = v
		_apply_shape()
## Cards left; -1 hides the count (the local player's own badge).
var count := 27:
	set(v):
		count = v
		_update()
var place := 0:
	set(v):
		place = v
		_update()
var thinking := false:
	set(v):
		thinking = v
		_update()
var active := false:
	set(v):
		active = v
		_update_style()
## The AI plays this seat for its player (auto-play): blinking border and label.
var auto_play := false:
	set(v):
		auto_play = v
		_update()
		_update_blink()
## Replaces the seat's relative name ("You", "East", …) when not empty: a spectator's bottom
## seat is nobody's "You".
var title := "":
	set(v):
		title = v
		_update()
## The font `title` is drawn in (online: nicknames may hold any character); null: the scene's.
var title_font: Font = null:
	set(v):
		if v != title_font:
			title_font = v
			if _name != null:
				_apply_title_font()
## Watching, not playing: the teams are named by their seats, never "ours"/"theirs", and the
## bottom seat shows its card count like the others (no hand of one's own hides it).
var spectator := false:
	set(v):
		spectator = v
		_update()
		_apply_shape()  # a watched bottom seat has its fan: not the player's lone portrait
## At or below this many cards the count turns red (announced by the engine's cards_left).
var warn_at := 10
## No text below this size (UiLayout.readable_font_size, set by the table's layout); the
## second line's own size is the scene's.
var text_floor := 0:
	set(v):
		if v != text_floor:
			text_floor = v
			if _sub != null:
				_sub.add_theme_font_size_override(&"font_size", maxi(SUB_FONT, text_floor))
## The second line's ("Level 3 · Normal") size in the scene.
const SUB_FONT := 14
## The level the seat's team is on (2..14; 0: not known yet): the line under its name (the plaque
## holds both teams'; the seat says its own, as the genre's seats do).
var team_level := 0:
	set(v):
		if v != team_level:
			team_level = v
			_update()
## The AI's level at this seat (0: a person): shown in the subtitle, and as a robot avatar.
var ai_level := 0:
	set(v):
		ai_level = v
		_update()
## Whether the finishing place is a line under the name (the layout drops it where it keeps the
## lines from standing under the portrait; the portrait's medal still says it).
var place_line := true:
	set(v):
		if v != place_line:
			place_line = v
			_update()
## Whether "AI Auto-Play" is a line under the name (the layout drops it from the player's own seat
## where it keeps the lines from standing under the portraits: the lit Auto-play switch and the
## blinking frame still say it).
var auto_line := true:
	set(v):
		if v != auto_line:
			auto_line = v
			_update()

@onready var _name: Label = %SeatName
@onready var _sub: Label = %Sub
@onready var _count: Label = %Count
@onready var _place: Label = %Place
@onready var _avatar: SeatAvatar = %Avatar
@onready var _chip_style: StyleBoxFlat = (%Count as Label).get_theme_stylebox(&"normal").duplicate()
@onready var _auto: Label = %AutoPlay
## The hand as a fan of backs beside the portrait, under the name.
@onready var _fan: BackFan = %Fan
var _style: StyleBoxFlat
var _blink: Tween
var _deadline_ms := 0
var _limit_ms := 0


## A badge for `seat_index` built from seat_badge.tscn (for code that places badges itself).
static func create(seat_index: int, back := true) -> SeatBadge:
	var badge: SeatBadge = load("res://table/seat_badge.tscn").instantiate()
	badge.seat = seat_index
	badge.with_back = back
	return badge


func _ready() -> void:
	name = "Seat%d" % seat
	# Each badge recolours its own border: a private copy of the scene's panel style.
	_style = (get_theme_stylebox(&"panel") as StyleBoxFlat).duplicate()
	add_theme_stylebox_override(&"panel", _style)
	(%Count as Label).add_theme_stylebox_override(&"normal", _chip_style)
	_avatar.seat = seat
	_apply_title_font()
	_apply_shape()
	set_process(false)
	# A font size change (the phone's floor, see Readability) re-measures the width.
	for l: Label in [_name, _sub, _auto, _place]:
		l.theme_changed.connect(_fit_width)
	_update()
	_update_blink()


func _apply_title_font() -> void:
	if title_font != null:
		_name.add_theme_font_override(&"font", title_font)
	else:
		_name.remove_theme_font_override(&"font")
	_fit_width()


## Starts (limit > 0) or hides (limit 0) the countdown ring around the avatar.
func set_countdown(limit_s: float) -> void:
	_limit_ms = int(limit_s * 1000.0)
	_deadline_ms = Time.get_ticks_msec() + _limit_ms
	_avatar.countdown = 1.0 if _limit_ms > 0 else -1.0
	set_process(_limit_ms > 0)


## Fraction of the turn's time left (1 → 0), or -1 without a countdown (for tests).
func countdown_left() -> float:
	return _avatar.countdown


func _process(_delta: float) -> void:
	var left := _deadline_ms - Time.get_ticks_msec()
	_avatar.countdown = clampf(float(left) / maxf(_limit_ms, 1), 0.0, 1.0)
	if left <= 0:
		set_process(false)


## The end of a deal (DealCeremony): after `wait_s` the portrait, with its medal, steps toward
## `toward` (global, the table's centre) and grows a little, then goes back to its seat; `step_s`
## each way. Not a coroutine: the badge may go mid-step.
func step_forward(wait_s: float, step_s: float, toward: Vector2) -> void:
	if step_s <= 0.0 or not is_node_ready():
		return
	var face := _avatar
	var home := face.position
	var dir := (toward - face.get_global_rect().get_center()).normalized() * STEP_PX
	face.pivot_offset = face.size * 0.5
	var tw := face.create_tween()
	tw.tween_interval(wait_s)
	tw.tween_property(face, "position", home + dir, step_s).set_ease(Tween.EASE_OUT).set_trans(Tween.TRANS_BACK)
	tw.parallel().tween_property(face, "scale", Vector2.ONE * STEP_SCALE, step_s)
	tw.tween_interval(step_s)
	tw.tween_property(face, "position", home, step_s).set_ease(Tween.EASE_IN_OUT)
	tw.parallel().tween_property(face, "scale", Vector2.ONE, step_s)


## The point cards fly from/to for this seat (global): the avatar.
func card_anchor() -> Vector2:
	if _avatar.is_inside_tree():
		return _avatar.get_global_rect().get_center()
	return get_global_rect().get_center()


## Everything the seat shows (global): the badge with its portrait and its cards-left chip, which
## stands out over the badge's edge.
func seat_rect() -> Rect2:
	var r := get_global_rect()
	if _count != null and _count.is_visible_in_tree():
		r = r.merge(_count.get_global_rect())
	return r


## The avatar (for tests and layout).
func avatar() -> SeatAvatar:
	return _avatar


## The seat's height in either shape (stacked or not), from its parts' minimum sizes: the table's
## layout picks the shape that leaves its plays room.
func shape_height(as_stacked: bool) -> float:
	if _name == null:
		return size.y
	var seat_h := (%Seat as Control).get_combined_minimum_size().y
	# The lines as the shape spaces them (closer when stacked, see _apply_shape).
	var col_h := 0.0
	var lines := 0
	for c: Control in ($Row/Col as Node).get_children():
		if c.visible:
			col_h += c.get_combined_minimum_size().y
			lines += 1
	col_h += LINE_GAP_STACKED * maxi(lines - 1, 0) if as_stacked else 0.0
	var panel := get_theme_stylebox(&"panel")
	var framing := panel.get_minimum_size().y if panel != null else 0.0
	return framing + (seat_h + col_h if as_stacked else maxf(seat_h, col_h))


## How far the portrait's left edge is from the seat's left (from the minimum sizes).
func portrait_left() -> float:
	var panel := get_theme_stylebox(&"panel")
	var margin := panel.get_margin(SIDE_LEFT) if panel != null else 0.0
	if stacked and _name != null:
		# The portrait and fan stand at the seat's outer side over the lines (the player's centred).
		var spare := maxf(size.x - margin * 2.0 - (%Seat as Control).get_combined_minimum_size().x, 0.0)
		margin += spare if fan_left else spare / 2.0 if not _fan.visible else 0.0
	if fan_left and _fan != null and _fan.visible:
		margin += _fan.get_combined_minimum_size().x + float((%Seat as HBoxContainer).get_theme_constant(&"separation"))
	return margin


## The portrait's width (its box's least size).
func portrait_size() -> float:
	return (%BackBox as Control).get_combined_minimum_size().x if _name != null else size.y


## How far the portrait's middle is below the seat's top (from the minimum sizes, so it holds
## before the seat's box has sorted its children).
func portrait_middle() -> float:
	if not stacked or _name == null:
		return size.y / 2.0
	var panel := get_theme_stylebox(&"panel")
	return (panel.get_margin(SIDE_TOP) if panel != null else 0.0) + (%Seat as Control).get_combined_minimum_size().y / 2.0


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		_update()


## Lays the portrait, the fan and the name lines out for `stacked` and `fan_left`.
func _apply_shape() -> void:
	if _name == null:  # @onready: _ready applies it
		return
	var row := $Row as BoxContainer
	row.vertical = stacked
	row.add_theme_constant_override(&"separation", 0 if stacked else 10)
	($Row/Col as BoxContainer).add_theme_constant_override(&"separation", LINE_GAP_STACKED if stacked else 0)
	# Stacked: the portrait at the seat's outer side (West and North on the left, East on the right,
	# beside their fans), the lines under it starting at its edge; the player's centred.
	var lone := not (with_back or spectator)
	var seat_box := %Seat as HBoxContainer
	seat_box.size_flags_horizontal = Control.SIZE_FILL if not stacked else Control.SIZE_SHRINK_CENTER if lone \
		else Control.SIZE_SHRINK_END if fan_left else Control.SIZE_SHRINK_BEGIN
	seat_box.move_child(_fan, 0 if fan_left else -1)
	var under := HORIZONTAL_ALIGNMENT_CENTER if lone else HORIZONTAL_ALIGNMENT_RIGHT if fan_left else HORIZONTAL_ALIGNMENT_LEFT
	for l: Label in [_name, _sub, _auto, _place]:
		l.horizontal_alignment = under if stacked else HORIZONTAL_ALIGNMENT_LEFT
	_fit_width()


func _update() -> void:
	if _name == null:  # @onready: the setters may run before _ready, which calls _update() itself
		return
	_name.text = title if title != "" else Wording.seat_name(seat, 0, spectator)
	_sub.text = _sub_text(thinking)
	_place.text = UiKit.place_text(place) if place > 0 else ""
	_auto.text = tr("AUTO_PLAY_LABEL")
	# At a deal's end the finishing place takes the Auto-play line's room (the seat's frame still
	# says it, and the deal's panel offers to take the seat back): a fourth line laid every seat's
	# lines beside its portrait on a phone's screen.
	_auto.visible = auto_play and place == 0 and auto_line
	_place.visible = place > 0 and place_line
	_avatar.seat = seat
	_avatar.face_key = title.hash() if title != "" else seat * 7 + 3
	_avatar.ai = ai_level > 0
	_avatar.place = place
	_avatar.out = count == 0
	var style := SeatStyle.current()
	var warn := count >= 0 and count <= warn_at
	_count.visible = (with_back or spectator) and count > 0
	_fan.visible = with_back or spectator
	_fan.count = maxi(count, 0)
	_count.text = str(count) if count >= 0 else ""
	_chip_style.bg_color = style.chip_warn_color if warn else style.chip_color
	_fit_width()


## The line under the name: the team's level (the portrait's ring says the side; a watcher also
## reads the side by its seats), then the AI's level, or "thinking…" in its place (the line
## keeps its width).
func _sub_text(is_thinking: bool) -> String:
	var parts := PackedStringArray()
	if spectator:
		parts.append(Wording.team(seat % 2, true))
	if team_level > 0:
		parts.append(tr("SEAT_LEVEL_FMT").format({level = Cards.rank_label(team_level)}))
	if is_thinking:
		parts.append(tr("THINKING"))
	elif ai_level > 0:
		parts.append(tr(["AI_EASY", "AI_NORMAL", "AI_HARD", "AI_EXPERT"][clampi(ai_level, 1, 4) - 1]))
	return " · ".join(parts)


## As wide as the widest text its lines can show (issue 27: "Opponents · Nor…" was cut at a
## phone's font sizes), at least WIDTH. Measured over every state (thinking or not, any place,
## auto-play), so a change of state never widens the badge into its neighbours mid-layout.
func _fit_width() -> void:
	var lines := {_name: [_name.text], _sub: [_sub_text(false), _sub_text(true)], _auto: [_auto.text],
		_place: [UiKit.place_text(1), UiKit.place_text(2), UiKit.place_text(3), UiKit.place_text(4)]}
	var text_w := 0.0
	for l: Label in lines:
		var font := l.get_theme_font(&"font")
		var fs := l.get_theme_font_size(&"font_size")
		for t: String in lines[l]:
			text_w = maxf(text_w, font.get_string_size(t, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x)
	# The portrait and the fan: beside the lines, or over them when stacked.
	var seat_w := (%Seat as Control).get_combined_minimum_size().x
	var content := maxf(text_w, seat_w) if stacked else text_w + seat_w + float(($Row as Control).get_theme_constant(&"separation"))
	var panel := get_theme_stylebox(&"panel")
	var want := ceilf(content + (panel.get_minimum_size().x if panel != null else 0.0) + 2.0)
	var least := 0.0 if stacked else WIDTH
	if absf(custom_minimum_size.x - maxf(least, want)) > 0.5:
		custom_minimum_size.x = maxf(least, want)


## Whether the auto-play border is blinking (for tests).
func is_blinking() -> bool:
	return _blink != null and _blink.is_valid() and _blink.is_running()


func _update_blink() -> void:
	if _blink != null:
		_blink.kill()
		_blink = null
	if auto_play and is_inside_tree():
		# The border fades between the auto-play colour and transparent, twice a second.
		_blink = create_tween().set_loops()
		_blink.tween_method(_set_blink, 1.0, 0.15, 0.5)
		_blink.tween_method(_set_blink, 0.15, 1.0, 0.5)
	_update_style()


func _set_blink(alpha: float) -> void:
	_style.border_color = Color(AUTO_PLAY_COLOR, alpha)


func _update_style() -> void:
	if _style == null:  # set in _ready
		return
	if auto_play:
		_style.bg_color = Color(_style.bg_color, 0.5)
		_style.set_border_width_all(4)
		_style.shadow_size = 0
		return
	# No box at the felt's edge: the seat is its portrait and lines; the panel shows for the turn.
	_style.border_color = ACTIVE_BORDER if active else Color(0.91, 0.76, 0.44, 0.0)
	_style.bg_color = Color(_style.bg_color, 0.5 if active else 0.0)
	_style.set_border_width_all(4 if active else 2)
	_style.shadow_size = 10 if active and Settings.effects_on() else 0
	_style.shadow_color = Color(1.0, 0.8, 0.3, 0.35)
