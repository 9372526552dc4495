extends ColorRect
## The table cloth behind every screen: a procedural felt shader, or a flat colour in
## low-performance mode.

const FLAT := Color(0.07, 0.29, 0.19)


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	color = FLAT
	Settings.changed.connect(_on_settings_changed)
	_apply()


func _apply() -> void:
	if Settings.get_value(&"low_perf"):
		material = null
	elif material == null:
		var m := ShaderMaterial.new()
		m.shader = preload("res://table/felt.gdshader")
		material = m


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"low_perf":
		_apply()
