extends GdTestSuite
## Art drawn once and then only laid down (tools/test-ui perf; perf_layers.tscn says what each layer
## costs): a seat's fan of backs renders the deck's back once per size and style, in the window's
## pixels; a court card's picture is cut and scaled once per card size.

const TestMenuLayout := preload("res://tests_godot/ui/test_menu_layout.gd")


func after_each() -> void:
	CardStyle.use(null)


func _fan_bake(fan: BackFan) -> SubViewport:
	return fan.get_node(^"BackBake") as SubViewport


func test_a_fan_renders_its_back_once_per_size_in_window_pixels() -> void:
	for px: Vector2i in [Vector2i(1280, 720), Vector2i(2340, 1080)]:
		var vp := TestMenuLayout.stretched_viewport(px)
		add_child(vp)
		var fan := BackFan.new()
		fan.card_height = 58.0
		vp.add_child(fan)
		await frames(3)
		var k := vp.get_final_transform().get_scale().x
		var bake := _fan_bake(fan)
		var back_px := bake.size
		# The back plus its shadow's few pixels, at the window's scale.
		expect(absi(back_px.y - roundi(58.0 * k)) <= ceili(58.0 * k * 0.05) + 2,
			"%s: the back is %s window pixels for a 58-unit card at scale %.2f" % [px, back_px, k])
		var back := fan.get_node(^"BackBake/CardView") as CardView
		expect(back.card_id == -1 and back.shadow, "%s: the deck's back, with its shadow" % px)
		expect_eq(back.size + Vector2(fan._pad_px, fan._pad_px), Vector2(bake.size),
			"%s: the back fills the texture but for its shadow's room" % px)
		var renders := fan.bakes
		for left in [27, 12, 3, 0, 27]:
			fan.count = left
			await frames(2)
		expect_eq(fan.bakes, renders, "%s: the fan thinning and filling costs no render" % px)
		fan.card_height = 40.0
		await frames(2)
		expect(fan.bakes > renders, "%s: a new card size renders the back again" % px)
		expect(_fan_bake(fan).size.y < back_px.y, "%s: … smaller" % px)
		renders = fan.bakes
		var style: CardStyle = CardStyle.current().duplicate()
		style.back_color = Color.MAGENTA
		CardStyle.use(style)
		await frames(3)
		expect(fan.bakes > renders, "%s: another card style renders the back again" % px)
		vp.queue_free()
		await frames(1)


func test_a_court_picture_is_scaled_once_per_size() -> void:
	var king := Cards.from_notation("HK")[0]
	var a := CardView.court_picture(king, Vector2i(52, 98))
	expect(a != null and a.get_size() == Vector2(52, 98), "scaled to the box's pixels (%s)" % [a.get_size() if a else null])
	expect(a == CardView.court_picture(king, Vector2i(52, 98)), "the same size: the same copy")
	var b := CardView.court_picture(king, Vector2i(80, 150))
	expect(b != a and b.get_size() == Vector2(80, 150), "another size: another copy")
	expect(CardView.court_picture(Cards.from_notation("SA")[0], Vector2i(52, 98)) == null, "an ace has no picture")
	# The copy is the picture's middle: its colours are the picture's, not blank paper.
	var img := a.get_image()
	var inked := 0
	for y in range(0, 98, 7):
		for x in range(0, 52, 5):
			var c := img.get_pixel(x, y)
			if c.v < 0.8 or c.s > 0.3:
				inked += 1
	expect(inked > 40, "the scaled picture carries the figure (%d inked samples)" % inked)
	# A card in a stretched window asks for its box in window pixels.
	var vp := TestMenuLayout.stretched_viewport(Vector2i(2340, 1080))
	add_child(vp)
	var view: CardView = load("res://hand/card_view.tscn").instantiate()
	view.card_id = king
	view.size = Vector2(60, 84)
	vp.add_child(view)
	await frames(2)
	expect_eq(view.face_art, &"court_texture", "drawn with its picture")
	var k := vp.get_final_transform().get_scale().x
	var want := Vector2i((view.figure_rect().size * k).round())
	expect(CardView._court_sized.has("king_heart@%dx%d" % [want.x, want.y]), "the card's picture was scaled to %s" % want)
	vp.queue_free()
