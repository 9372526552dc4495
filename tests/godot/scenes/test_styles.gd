extends GdTestSuite
## The look is data: the card and table styles (.tres) drive what the nodes show. A style written
## by the test is loaded back from disk and the table, its cards, the hand, the felt and the banner
## show its colours and sizes; the player's "High-contrast cards" setting switches every card.

const CARD_TMP := "user://test_card_style.tres"
const TABLE_TMP := "user://test_table_style.tres"
const RED_SPADES := Color(0.9, 0.0, 0.5)
const TEAL_HEARTS := Color(0.0, 0.6, 0.6)


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	CardStyle.use(null)
	TableStyle.use(null)
	Settings.reset_for_tests()
	DirAccess.remove_absolute(CARD_TMP)
	DirAccess.remove_absolute(TABLE_TMP)


## A card style different from the default in colour and size, saved to disk and loaded back
## (so the test goes through the same .tres path a designer's file does).
func _written_card_style() -> CardStyle:
	var s := CardStyle.load_style(CardStyle.DEFAULT_PATH).duplicate() as CardStyle
	s.spades_color = RED_SPADES
	s.hearts_color = TEAL_HEARTS
	s.corner_radius = 0.2
	s.selected_lift = 44.0
	s.max_visible = 0.3
	s.min_visible = 0.2
	expect_eq(ResourceSaver.save(s, CARD_TMP), OK, "style written")
	return ResourceLoader.load(CARD_TMP, "", ResourceLoader.CACHE_MODE_IGNORE) as CardStyle


func _table(config: MatchConfig) -> Table:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	add_child(table)
	return table


func test_both_card_styles_load_and_differ() -> void:
	var normal := CardStyle.load_style(CardStyle.DEFAULT_PATH)
	var high := CardStyle.load_style(CardStyle.HIGH_CONTRAST_PATH)
	expect(normal != null and high != null, "both .tres are CardStyles")
	expect_ne(normal.clubs_color, high.clubs_color, "high contrast: four-colour suits")
	expect(high.rank_size > normal.rank_size, "high contrast: bigger corner ranks")
	expect_eq(CardStyle.current(), normal, "the default is used when the setting is off")
	var table_style := TableStyle.current()
	expect(table_style != null and table_style.resource_path == TableStyle.DEFAULT_PATH, "table_default.tres")


func test_the_table_draws_with_a_card_style_written_by_the_test() -> void:
	var style := _written_card_style()
	CardStyle.use(style)
	var table := _table(MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false}))
	var hand: HandView = table.hand
	expect(await wait_until(func() -> bool: return hand.card_count() >= 27 and hand.size.x > 100.0 and table.is_idle(), 20.0),
		"the hand is dealt and laid out")
	var layer: CardLayer = table.layer
	var spade := -1
	var heart := -1
	for id in hand.cards():
		if Cards.suit(id) == Cards.Suit.SPADES and spade < 0:
			spade = id
		elif Cards.suit(id) == Cards.Suit.HEARTS and heart < 0 and not Cards.is_wild(id, hand.level):
			heart = id
	expect(spade >= 0 and heart >= 0, "the hand has a spade and a heart")
	var spade_view := layer.find_view(spade)
	expect_eq(spade_view.ink(), RED_SPADES, "spades drawn in the style's colour")
	expect_eq(layer.find_view(heart).ink(), TEAL_HEARTS, "hearts drawn in the style's colour")
	expect(is_equal_approx(spade_view.corner_radius_px(), spade_view.size.x * 0.2), "corner radius from the style")
	# Overlap: the step between neighbours is at most max_visible of a card's width.
	var order := hand.display_order()
	var a := hand.slot_of(order[0])
	var b := hand.slot_of(order[1])
	expect(b.position.x - a.position.x <= a.size.x * 0.3 + 0.01, "cards overlap by the style's range (step %.1f, width %.1f)" % [b.position.x - a.position.x, a.size.x])
	# Lift: a selected card rises by selected_lift.
	var before := layer.find_view(order[3]).position.y
	expect(before > 0.0 and before < table.size.y, "the card is on screen (y %.1f)" % before)
	hand.set_selected(PackedInt32Array([order[3]]))
	await frames(2)
	expect(is_equal_approx(before - layer.find_view(order[3]).position.y, 44.0), "a selected card lifts 44 px (moved %.1f)" % (before - layer.find_view(order[3]).position.y))
	table.queue_free()
	await frames(2)


func test_the_high_contrast_setting_restyles_cards_at_once() -> void:
	var view: CardView = load("res://hand/card_view.tscn").instantiate()
	add_child(view)
	view.card_id = Cards.from_notation("C7")[0]
	var high := CardStyle.load_style(CardStyle.HIGH_CONTRAST_PATH)
	expect_eq(view.ink(), CardStyle.load_style(CardStyle.DEFAULT_PATH).clubs_color, "default clubs")
	Settings.set_value(&"high_contrast_cards", true)
	expect_eq(CardStyle.current(), high, "the setting picks card_high_contrast.tres")
	expect_eq(view.ink(), high.clubs_color, "the same view now draws clubs in the high-contrast colour")
	Settings.set_value(&"high_contrast_cards", false)
	expect_eq(view.ink(), CardStyle.load_style(CardStyle.DEFAULT_PATH).clubs_color, "and back")


func test_the_felt_and_banner_follow_a_table_style_written_by_the_test() -> void:
	var s := TableStyle.current().duplicate() as TableStyle
	s.felt_centre_color = Color(0.5, 0.1, 0.1)
	s.felt_flat_color = Color(0.3, 0.05, 0.05)
	s.banner_color = Color(0.2, 0.9, 1.0)
	s.banner_font_size = 50
	s.seat_margin = 40.0
	s.heat_bomb_color = Color(0.1, 0.8, 0.2, 0.5)
	expect_eq(ResourceSaver.save(s, TABLE_TMP), OK, "style written")
	TableStyle.use(ResourceLoader.load(TABLE_TMP, "", ResourceLoader.CACHE_MODE_IGNORE) as TableStyle)
	var felt: Control = preload("res://table/felt.gd").new()
	add_child(felt)
	var shader: ShaderMaterial = felt.shader_material()
	expect(shader != null, "the felt shader is on")
	expect_eq(shader.get_shader_parameter(&"centre_color"), Color(0.5, 0.1, 0.1), "felt centre colour from the style")
	expect_eq(felt.color, Color(0.3, 0.05, 0.05), "flat felt colour from the style")
	var table := _table(MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 3, ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	await frames(3)
	var banner: Banner = table.banner
	expect_eq(banner.get_theme_color(&"font_color"), Color(0.2, 0.9, 1.0), "banner colour from the style")
	var west: Control = table.badges[3]
	expect(is_equal_approx(west.position.x - table.middle.position.x, 40.0), "west sits seat_margin from the edge (%.1f)" % (west.position.x - table.middle.position.x))
	var swatch := table.training.heat_legend.get_child(0) as ColorRect
	expect(swatch != null and swatch.color == Color(0.1, 0.8, 0.2, 1.0), "the heat legend's bomb swatch from the style, opaque")
	var bars: Dictionary = preload("res://table/training_tools.gd").heat_colors([CardHeat.of(7, 1.0, 0.0, 0.0, 0.0)] as Array[CardHeat], TableStyle.current().heat_colors())
	expect(bars.has(7) and is_equal_approx((bars[7] as Color).g, 0.8), "the heat bars use the style's colour (%s)" % bars)
	table.queue_free()
	await frames(2)


func test_the_settings_screen_offers_high_contrast_cards() -> void:
	var screen: Control = load("res://settings/settings_screen.tscn").instantiate()
	add_child(screen)
	await frames(1)
	var toggle := screen.control_for(&"high_contrast_cards") as CheckButton
	if not expect(toggle != null, "a High-contrast cards row"):
		return
	expect(not toggle.button_pressed, "off by default")
	toggle.button_pressed = true
	expect_eq(Settings.get_value(&"high_contrast_cards"), true, "the row saves the setting")
	expect_eq(CardStyle.current(), CardStyle.load_style(CardStyle.HIGH_CONTRAST_PATH), "cards now use the high-contrast style")
	# Every row of the scene edits a real setting (a row is a control named after its key).
	var rows := 0
	var cells: Array[Node] = []
	for grid in screen.find_children("Grid*", "GridContainer", true, false):
		cells.append_array(grid.get_children())
	for c in cells:
		if not c is Label:
			rows += 1
			expect(Settings.DEFAULTS.has(StringName(c.name)), "the row %s names a setting" % c.name)
			expect_eq(screen.control_for(StringName(c.name)), c, "the row %s is bound" % c.name)
	expect(rows >= 16, "the rows are there (%d)" % rows)
	screen.queue_free()


func test_the_card_scene_previews_any_card() -> void:
	var view: CardView = load("res://hand/card_view.tscn").instantiate()
	add_child(view)
	expect(view.size.x > 0.0 and is_equal_approx(view.size.y / view.size.x, CardView.ASPECT), "a card-shaped scene (%s)" % view.size)
	view.notation = "ht"
	expect_eq(view.card_id, Cards.from_notation("HT")[0], "notation picks the card")
	expect_eq(view.notation, "HT")
	view.card_id = Cards.BIG_JOKER
	expect_eq(view.notation, "HR", "and follows card_id")
	view.notation = "nonsense"
	expect_eq(view.card_id, Cards.BIG_JOKER, "bad notation leaves the card as it was")
	view.queue_free()
