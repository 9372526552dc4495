extends RefCounted
## Simulated pointer input for UI tests: real InputEvents pushed through the viewport, so they go
## through Godot's GUI routing exactly as a mouse (or a touch, emulated as a mouse) would.
## Positions are viewport coordinates (a Control's global position).

var viewport: Viewport


func _init(vp: Viewport) -> void:
	viewport = vp


func press(pos: Vector2, ctrl := false) -> void:
	var e := InputEventMouseButton.new()
	e.button_index = MOUSE_BUTTON_LEFT
	e.pressed = true
	e.position = pos
	e.global_position = pos
	e.button_mask = MOUSE_BUTTON_MASK_LEFT
	e.ctrl_pressed = ctrl
	viewport.push_input(e, true)


func move(pos: Vector2, relative := Vector2.ZERO) -> void:
	var e := InputEventMouseMotion.new()
	e.position = pos
	e.global_position = pos
	e.relative = relative
	e.button_mask = MOUSE_BUTTON_MASK_LEFT
	viewport.push_input(e, true)


func release(pos: Vector2) -> void:
	var e := InputEventMouseButton.new()
	e.button_index = MOUSE_BUTTON_LEFT
	e.pressed = false
	e.position = pos
	e.global_position = pos
	viewport.push_input(e, true)


func tap(pos: Vector2, ctrl := false) -> void:
	press(pos, ctrl)
	release(pos)


func double_tap(pos: Vector2) -> void:
	tap(pos)
	tap(pos)


## Press at `from`, move in `steps` steps to `to`, release there.
func drag(from: Vector2, to: Vector2, steps := 6) -> void:
	press(from)
	var last := from
	for i in range(1, steps + 1):
		var p := from.lerp(to, float(i) / steps)
		move(p, p - last)
		last = p
	release(to)


func key(keycode: Key) -> void:
	for pressed in [true, false]:
		var e := InputEventKey.new()
		e.keycode = keycode
		e.physical_keycode = keycode
		e.pressed = pressed
		viewport.push_input(e, true)
