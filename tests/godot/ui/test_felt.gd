extends GdTestSuite
## The felt (table/felt.gd): its shader runs once per change into a texture of the window's own
## pixels (the stretch's scale included, so the grain stays one pixel fine), and each frame only
## copies that texture; the table's oval reaches the shader in those pixels; low-performance mode
## draws the flat colour with no shader at all.

const TestMenuLayout := preload("res://tests_godot/ui/test_menu_layout.gd")


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"low_perf", false)


func after_each() -> void:
	Settings.reset_for_tests()


func _bake(felt: Control) -> SubViewport:
	return felt.get_node(^"Bake") as SubViewport


func test_the_bake_is_in_the_window_pixels_and_follows_the_oval() -> void:
	var style := TableStyle.current()
	for px: Vector2i in [Vector2i(1280, 720), Vector2i(2340, 1080), Vector2i(1024, 768)]:
		var vp := TestMenuLayout.stretched_viewport(px)
		add_child(vp)
		var felt: Control = preload("res://table/felt.gd").new()
		vp.add_child(felt)
		await frames(2)
		var k := float(px.y) / felt.size.y if px.x / felt.size.x >= px.y / felt.size.y else float(px.x) / felt.size.x
		expect_eq(_bake(felt).size, px, "%s: the bake has the window's pixels (logical %s)" % [px, felt.size])
		var shader: ShaderMaterial = felt.shader_material()
		expect(shader != null, "%s: the shader is on" % px)
		expect_eq(shader.get_shader_parameter(&"oval_size"), Vector2.ZERO, "%s: no table yet: the plain cloth" % px)
		var oval := Rect2(Vector2(100, 80), Vector2(600, 400))
		felt.show_table(oval)
		var half: Vector2 = shader.get_shader_parameter(&"oval_size")
		expect(half.is_equal_approx(oval.size / 2.0 * k), "%s: the oval's half-axes in pixels (%s, scale %.3f)" % [px, half, k])
		var centre: Vector2 = shader.get_shader_parameter(&"oval_centre")
		expect(centre.is_equal_approx(oval.get_center() * k), "%s: the oval's centre in pixels (%s)" % [px, centre])
		expect(is_equal_approx(float(shader.get_shader_parameter(&"rim_width")), style.rim_width * k),
			"%s: the rim's width scales with the window" % px)
		expect_eq(_bake(felt).render_target_update_mode, SubViewport.UPDATE_ONCE, "%s: a change bakes once" % px)
		felt.show_table(Rect2())
		expect_eq(shader.get_shader_parameter(&"oval_size"), Vector2.ZERO, "%s: the table left: the plain cloth again" % px)
		vp.queue_free()
		await frames(1)


func test_low_performance_mode_draws_the_flat_colour_without_the_shader() -> void:
	var felt: Control = preload("res://table/felt.gd").new()
	add_child(felt)
	await frames(1)
	expect(felt.shader_material() != null, "effects on: the shader")
	Settings.set_value(&"low_perf", true)
	expect(felt.shader_material() == null, "low-performance mode: no shader")
	expect_eq(felt.color, TableStyle.current().felt_flat_color, "the flat colour from the style")
	Settings.set_value(&"low_perf", false)
	expect(felt.shader_material() != null, "and back")
	felt.queue_free()
	await frames(1)


## The shader runs only when what it draws changes: the same oval asked for again (the table lays
## itself out after every play) costs nothing; another oval, another window size or another style
## is one bake each.
func test_only_a_real_change_bakes_again() -> void:
	var vp := TestMenuLayout.stretched_viewport(Vector2i(1280, 720))
	add_child(vp)
	var felt: Control = preload("res://table/felt.gd").new()
	vp.add_child(felt)
	await frames(1)
	var oval := Rect2(Vector2(100, 80), Vector2(600, 400))
	felt.show_table(oval)
	var n: int = felt.bakes
	for i in 10:
		felt.show_table(oval)
	expect_eq(felt.bakes, n, "the same oval ten times: no bake")
	felt.show_table(Rect2(Vector2(100, 80), Vector2(640, 400)))
	expect_eq(felt.bakes, n + 1, "another oval: one bake")
	vp.size = Vector2i(2340, 1080)
	await frames(2)
	expect(felt.bakes >= n + 2, "another window size: a bake (%d)" % felt.bakes)
	var after_resize: int = felt.bakes
	var style := TableStyle.current().duplicate() as TableStyle
	style.felt_centre_color = Color(0.4, 0.2, 0.1)
	felt.style.changed.disconnect(felt._apply)
	felt.style = style
	style.changed.connect(felt._apply)
	style.emit_changed()
	expect_eq(felt.bakes, after_resize + 1, "a style change: one bake")
	vp.queue_free()
	await frames(1)


## A table playing a deal asks the felt for its oval after every layout; the felt bakes once.
func test_a_deal_played_on_the_table_bakes_the_felt_once() -> void:
	var vp := TestMenuLayout.stretched_viewport(Vector2i(1280, 720))
	add_child(vp)
	var felt: Control = preload("res://table/felt.gd").new()
	vp.add_child(felt)
	var asked := [0]
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 5, ai_min_think_ms = 0, turn_timer = 0, save_record = false})})
	vp.add_child(table)
	expect(await wait_until(func() -> bool: return (felt.oval as Rect2).has_area(), 10.0), "the table asks for its oval")
	await frames(5)
	var n: int = felt.bakes
	table.event_shown.connect(func(_e: MatchEvent) -> void: asked[0] += 1)
	expect(await wait_until(func() -> bool: return asked[0] >= 12, 60.0), "a dozen events shown (%d)" % asked[0])
	expect_eq(felt.bakes, n, "no bake while the deal is played (%d events)" % asked[0])
	table.queue_free()
	vp.queue_free()
	await frames(2)


## The seal watermark (visual brief: 6 % opacity) is baked with the cloth, centred on the table's
## oval at the style's share of its height, in the style's colour; no seal on the plain cloth of
## the other screens, nor with its colour's alpha at 0.
func test_the_seal_is_baked_in_the_middle_of_the_oval() -> void:
	var style := TableStyle.current()
	expect(is_equal_approx(style.seal_color.a, 0.06), "a 6 % watermark by default")
	var vp := TestMenuLayout.stretched_viewport(Vector2i(1280, 720))
	add_child(vp)
	var felt: Control = preload("res://table/felt.gd").new()
	vp.add_child(felt)
	await frames(1)
	var seal := _bake(felt).get_node(^"Seal") as FeltSeal
	expect(not seal.visible, "no table: no seal")
	var oval := Rect2(Vector2(100, 80), Vector2(600, 400))
	felt.show_table(oval)
	var centre: Vector2 = felt.shader_material().get_shader_parameter(&"oval_centre")
	var half: Vector2 = felt.shader_material().get_shader_parameter(&"oval_size")
	expect(seal.visible, "a table: the seal")
	expect(seal.get_rect().get_center().is_equal_approx(centre), "centred on the oval (%s, %s)" % [seal.get_rect(), centre])
	expect(is_equal_approx(seal.size.y, half.y * 2.0 * style.seal_size), "its side a share of the oval's height")
	expect_eq(seal.modulate, style.seal_color, "in the style's colour")
	felt.show_table(Rect2())
	expect(not seal.visible, "the table left: no seal")
	var clear := style.duplicate() as TableStyle
	clear.seal_color.a = 0.0
	felt.style.changed.disconnect(felt._apply)
	felt.style = clear
	felt.show_table(oval)
	expect(not seal.visible, "alpha 0: no seal")
	vp.queue_free()
	await frames(1)
