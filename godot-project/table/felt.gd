extends ColorRect
## The table cloth behind every screen: a procedural felt shader, or a flat colour in
## low-performance mode. Colours and grain come from the TableStyle (table_default.tres).

## The style the felt was made with (TableStyle.current()); editing it recolours the felt.
var style: TableStyle


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	style = TableStyle.current()
	style.changed.connect(_apply)
	Settings.changed.connect(_on_settings_changed)
	_apply()


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


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"low_perf":
		_apply()
