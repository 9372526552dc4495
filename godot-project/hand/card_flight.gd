class_name CardFlight
extends RefCounted
## Cards move like cards: along a shallow arc rather than a straight line, and landing with a
## small overshoot, as a card tossed onto cloth slides a little past and settles. The arc's height
## and the overshoot are the pacing profile's (flight_arc, landing_overshoot).

## Where a flight is at `p` (0 → 1): start, the arc's control point and the target.
static func point(start: Vector2, target: Vector2, p: float, arc: float, overshoot: float) -> Vector2:
	var q := 1.0 - (1.0 - p) * (1.0 - p)  # eases out
	# A bump that peaks near the end (sin(πp)·p³ tops out at ≈0.3 by p ≈ 0.8) and is 0 at both ends.
	q += overshoot * sin(PI * p) * p * p * p / 0.3
	var ctrl := (start + target) * 0.5 + Vector2(0.0, -arc * start.distance_to(target))
	var a := start.lerp(ctrl, q)
	var b := ctrl.lerp(target, q)
	return a.lerp(b, q)


## Tweens `view`'s position from where it is to `target` in `seconds` on `tween` (one already
## made by the view, possibly parallel with other properties).
static func fly(view: CardView, tween: Tween, target: Vector2, seconds: float, pacing: PacingProfile) -> void:
	var start := view.position
	var arc := pacing.flight_arc
	var over := pacing.landing_overshoot
	tween.tween_method(func(p: float) -> void: view.position = point(start, target, p, arc, over), 0.0, 1.0, seconds)
