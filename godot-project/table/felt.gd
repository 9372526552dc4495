extends ColorRect
## The table cloth behind every screen: a procedural felt shader, or a flat colour in
## low-performance mode. Colours and grain come from the TableStyle (table_default.tres).
## While a table is on screen it asks for an oval (the "felt" group's show_table): the cloth then
## becomes an oval with a lacquer rim, a spotlight over the play and the floor around it; one
## shader for both, so the table costs no extra full-screen pass.

## The style the felt was made with (TableStyle.current()); editing it recolours the felt.
var style: TableStyle
## The oval (global rect) the table asked for; empty = the plain cloth of the other screens.
var oval := Rect2()


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	add_to_group(&"felt")
	style = TableStyle.current()
	style.changed.connect(_apply)
	Settings.changed.connect(_on_settings_changed)
	resized.connect(_apply_oval)
	_apply()


## The table's oval (global rect), or Rect2() when the table leaves.
func show_table(rect: Rect2) -> void:
	oval = rect
	_apply_oval()


func _apply() -> void:
	color = style.felt_flat_color
	if Settings.get_value(&"low_perf"):
		material = null
		return
	if material == null:
		var m := ShaderMaterial.new()
		m.shader = preload("res://table/felt.gdshader")
		material = m
	var shader := material as ShaderMaterial
	shader.set_shader_parameter(&"centre_color", style.felt_centre_color)
	shader.set_shader_parameter(&"edge_color", style.felt_edge_color)
	shader.set_shader_parameter(&"grain", style.felt_grain)
	shader.set_shader_parameter(&"rim_color", style.rim_color)
	shader.set_shader_parameter(&"rim_light_color", style.rim_light_color)
	shader.set_shader_parameter(&"floor_color", style.floor_color)
	shader.set_shader_parameter(&"light_strength", style.light_strength)
	_apply_oval()


func _apply_oval() -> void:
	var shader := material as ShaderMaterial
	if shader == null:
		return
	# The shader works in this rect's pixels; the table's rect is global.
	var to_local := get_global_transform().affine_inverse()
	var r := to_local * oval if oval.has_area() else Rect2()
	shader.set_shader_parameter(&"size_px", size)
	shader.set_shader_parameter(&"oval_centre", r.get_center())
	shader.set_shader_parameter(&"oval_size", r.size / 2.0)
	shader.set_shader_parameter(&"rim_width", style.rim_width * to_local.get_scale().y)
	shader.set_shader_parameter(&"light_centre", r.get_center() - Vector2(0.0, r.size.y * 0.08))
	shader.set_shader_parameter(&"light_radius", r.size.y * style.light_radius)


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"low_perf":
		_apply()
