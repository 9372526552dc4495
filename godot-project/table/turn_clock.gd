class_name TurnClock
extends HBoxContainer
## The player's turn clock beside the action bar: a bar that empties and the seconds left, red
## with a tick each second in the last `pacing.clock_warning_s` seconds. The table starts it for
## a turn, a tribute or a return and feeds it the engine's time left every frame.

## Where the warning seconds come from (set by the table).
var pacing: PacingProfile = preload("res://resources/style/pacing_default.tres")

@onready var _bar: ProgressBar = $MyCountdown
@onready var _seconds: Label = $Seconds
var _deadline_ms := 0
var _limit_ms := 0
## Whole seconds left when the clock last ticked (the warning sound plays once per second).
var _last_s := -1


func _ready() -> void:
	# The bar is what the table shows and hides; the whole clock follows it.
	_bar.visibility_changed.connect(func() -> void: visible = _bar.visible)


## Starts counting down `limit_ms` (0 or less: no clock); shown only when there is a limit.
func start(limit_ms: int) -> void:
	_limit_ms = limit_ms
	_deadline_ms = Time.get_ticks_msec() + _limit_ms
	_bar.visible = _limit_ms > 0


## One frame of a running clock. The engine's clock is the truth (it stops while the table
## animates); local time is the fallback when it has none (`engine_left_s` < 0).
func tick(engine_left_s: float) -> void:
	if not _bar.visible or _limit_ms <= 0:
		return
	var left := engine_left_s * 1000.0 if engine_left_s >= 0.0 else float(_deadline_ms - Time.get_ticks_msec())
	show_seconds(left / 1000.0)


## Shows `left_s` seconds: the bar's share of the limit and the whole seconds, warning at the end.
func show_seconds(left_s: float) -> void:
	_bar.value = clampf(left_s * 1000.0 / maxf(_limit_ms, 1.0), 0.0, 1.0)
	var whole := maxi(ceili(left_s), 0)
	_seconds.text = tr("CLOCK_SECONDS_FMT").format({s = whole})
	var warn := left_s <= pacing.clock_warning_s
	var colour := SeatBadge.WARN_COLOR if warn else Color(1, 1, 0.85)
	_seconds.add_theme_color_override(&"font_color", colour)
	_bar.modulate = colour if warn else Color.WHITE
	if warn and whole != _last_s and whole > 0:
		Sfx.play(&"tick")
	_last_s = whole


## The clock's size: the bar, the gap and the seconds (a hidden container's own size is stale).
func needed_size() -> Vector2:
	return Vector2(_bar.custom_minimum_size.x + 8.0 + _seconds.custom_minimum_size.x, 40.0)


## Whether the clock is in its warning seconds.
func warning() -> bool:
	return _bar.modulate != Color.WHITE
