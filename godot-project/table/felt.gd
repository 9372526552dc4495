extends Control
## The table cloth behind every screen: a procedural felt shader, or a flat colour in
## low-performance mode. Colours and grain come from the TableStyle (table_default.tres).
## While a table is on screen it asks for an oval (the "felt" group's show_table): the cloth then
## becomes an oval with a lacquer rim, a spotlight over the play, a seal watermark in its middle
## (FeltSeal) and the floor around it.
## The cloth never moves, so the shader runs once per change (style, size, oval) into a texture
## of the window's own pixels, and each frame only copies it: a full-screen shader every frame
## was the table's dearest draw under software rendering (tools/test-ui perf).

## The style the felt was made with (TableStyle.current()); editing it recolours the felt.
var style: TableStyle
## The oval (global rect) the table asked for; empty = the plain cloth of the other screens.
var oval := Rect2()
## The flat colour drawn in low-performance mode (and under the texture until it exists).
var color := Color.BLACK

## How many times the shader has been asked to run (tests: a layout that moves nothing costs no
## bake).
var bakes := 0

var _bake := SubViewport.new()
## What the last bake was made of (pixels, oval in pixels, rim width); a style change clears it.
var _baked := []
var _cloth := ColorRect.new()
## The seal watermark, baked with the cloth (only while a table's oval is shown).
var _seal := FeltSeal.new()
var _material := ShaderMaterial.new()


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	# 1:1 with the window's pixels: no filtering to pay for.
	texture_filter = CanvasItem.TEXTURE_FILTER_NEAREST
	add_to_group(&"felt")
	_material.shader = preload("res://table/felt.gdshader")
	_cloth.material = _material
	_cloth.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	_bake.name = &"Bake"
	_bake.disable_3d = true
	_bake.transparent_bg = false
	_bake.render_target_update_mode = SubViewport.UPDATE_DISABLED
	_bake.add_child(_cloth)
	_seal.name = &"Seal"
	_seal.visible = false
	_bake.add_child(_seal)
	add_child(_bake)
	style = TableStyle.current()
	style.changed.connect(_apply)
	Settings.changed.connect(_on_settings_changed)
	resized.connect(_apply_oval)
	# The stretch's scale can change with the window while this rect's logical size does not.
	get_viewport().size_changed.connect(_apply_oval)
	_apply()


## The table's oval (global rect), or Rect2() when the table leaves.
func show_table(rect: Rect2) -> void:
	oval = rect
	_apply_oval()


## The cloth's shader and its parameters (null in low-performance mode: the flat colour).
func shader_material() -> ShaderMaterial:
	return null if _flat() else _material


func _flat() -> bool:
	return bool(Settings.get_value(&"low_perf"))


func _apply() -> void:
	color = style.felt_flat_color
	_baked = []
	_material.set_shader_parameter(&"centre_color", style.felt_centre_color)
	_material.set_shader_parameter(&"edge_color", style.felt_edge_color)
	_material.set_shader_parameter(&"grain", style.felt_grain)
	_material.set_shader_parameter(&"rim_color", style.rim_color)
	_material.set_shader_parameter(&"rim_light_color", style.rim_light_color)
	_material.set_shader_parameter(&"floor_color", style.floor_color)
	_material.set_shader_parameter(&"light_strength", style.light_strength)
	_apply_oval()


func _apply_oval() -> void:
	queue_redraw()
	if _flat() or not is_inside_tree():
		return
	# The bake is in the window's pixels (the stretch's scale included), so the grain stays one
	# pixel fine; the table's rect is global.
	var s := get_screen_transform().get_scale()
	var px := Vector2i(maxi(roundi(size.x * s.x), 1), maxi(roundi(size.y * s.y), 1))
	var to_local := get_global_transform().affine_inverse()
	var local := to_local * oval if oval.has_area() else Rect2()
	var r := Rect2(local.position * s, local.size * s)
	var rim := style.rim_width * to_local.get_scale().y * s.y
	# The table lays itself out again and again (a chip's count, a badge's place) with the same
	# oval: only a real change is worth a full-screen shader pass.
	var key := [px, r, rim]
	if key == _baked:
		return
	_baked = key
	bakes += 1
	_bake.size = px
	if r.has_area():
		_seal.place(r.get_center(), r.size.y * style.seal_size, style.seal_color)
	else:
		_seal.visible = false
	_material.set_shader_parameter(&"size_px", Vector2(px))
	_material.set_shader_parameter(&"oval_centre", r.get_center())
	_material.set_shader_parameter(&"oval_size", r.size / 2.0)
	_material.set_shader_parameter(&"rim_width", rim)
	_material.set_shader_parameter(&"light_centre", r.get_center() - Vector2(0.0, r.size.y * 0.08))
	_material.set_shader_parameter(&"light_radius", r.size.y * style.light_radius)
	_bake.render_target_update_mode = SubViewport.UPDATE_ONCE


func _draw() -> void:
	if _flat():
		draw_rect(Rect2(Vector2.ZERO, size), color)
	else:
		draw_texture_rect(_bake.get_texture(), Rect2(Vector2.ZERO, size), false)


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"low_perf":
		_apply()
