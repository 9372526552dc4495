extends GdTestSuite
## Help: the rules page (every combination with card pictures, bombs, tribute, levels, wild) from
## the menu and over the table from the pause menu (Esc closes it), in both languages; and the
## guided first deal, whose coach explains lead, follow, pass, bomb, wild, partner and going out.

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()
	TranslationServer.set_locale("en")


func timeout_for(_method: StringName) -> float:
	return 150.0


func test_the_rules_page_shows_every_combination_with_cards() -> void:
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		var page: Control = load("res://help/rules_page.tscn").instantiate()
		add_child(page)
		await frames(2)
		var content: Control = page.find_child("Content", true, false)
		for combo: Array in page.COMBOS:
			var row: Control = content.find_child(String(combo[0]).get_slice(".", 1), false, false)
			if not expect(row != null, "%s: a row for %s" % [locale, combo[0]]):
				continue
			var cards: Control = row.find_child("Cards", false, false)
			expect(cards != null and cards.get_child_count() >= 1, "%s: %s has card pictures" % [locale, combo[0]])
			for l: Label in row.find_children("*", "Label", false, false):
				expect(tr(l.text) != l.text or not l.text.begins_with("RULES_"), "%s: %s translated" % [locale, l.text])
		for section: Array in page.SECTIONS:
			expect(tr(section[1]) != section[1] and tr(section[1]).length() > 60, "%s: %s has text" % [locale, section[1]])
		expect(page.find_child("GuidedDeal", true, false) != null, "the page offers the guided deal")
		page.queue_free()
		await frames(1)
	# The bomb order the page states holds in the rules engine: each bomb example beats every
	# non-bomb example, and four jokers > straight flush > 4-card bomb.
	var rules = GuandanRules.preset("competition")
	var script: GDScript = load("res://help/rules_page.gd")
	var ex := func(key: String) -> PackedInt32Array: return script.example(key)
	for bomb in ["play.bomb", "play.straight_flush", "play.four_kings"]:
		for plain in ["play.single", "play.pair", "play.trips", "play.three_with_two", "play.straight", "play.three_pair", "play.two_trips"]:
			expect(rules.beats(ex.call(bomb), ex.call(plain), 2), "%s beats %s" % [bomb, plain])
	expect(rules.beats(ex.call("play.straight_flush"), ex.call("play.bomb"), 2), "straight flush > 4-card bomb")
	expect(rules.beats(ex.call("play.four_kings"), ex.call("play.straight_flush"), 2), "four jokers > straight flush")
	expect(not rules.beats(ex.call("play.bomb"), ex.call("play.straight_flush"), 2), "4-card bomb < straight flush")


func test_rules_over_the_table_from_the_pause_menu() -> void:
	var Pointer := preload("res://tests_godot/ui/pointer.gd")
	var pointer = Pointer.new(get_viewport())
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"match", ai_levels = [1, 1, 1], seed = 8, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false})})
	add_child(table)
	expect(await wait_until(func() -> bool: return table.is_idle()), "table idle")
	table.pause_menu.open()
	expect(table.modal.button(&"rules") != null, "the pause menu offers the rules")
	table.modal.press(&"rules")
	await frames(2)
	var page: Control = table.find_child("RulesPage", false, false)
	if not expect(page != null and page.visible, "the rules page is over the table"):
		return
	pointer.key(KEY_ESCAPE)
	await frames(2)
	expect(not is_instance_valid(page) or not page.is_inside_tree(), "Esc closes the rules page")
	expect(table.modal.is_open() and table.modal.button(&"resume") != null, "back to the pause menu")
	table.modal.press(&"resume")


func test_the_guided_first_deal_explains_each_step() -> void:
	var config := GuidedDeal.config()
	config.ai_min_think_ms = 0
	table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	add_child(table)
	await frames(2)
	var guide: GuidedDeal = table.guide
	if not expect(guide != null, "the guided deal has a coach"):
		return
	var ended := []
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: ended.append(e))
	var deadline := Time.get_ticks_msec() + 120000
	while ended.is_empty() and Time.get_ticks_msec() < deadline:
		await frames(1)
		if table.is_idle() and table.duty == &"play":
			var hints: Array = table.controller.advice.hints(1)
			var cards := PackedInt32Array()
			if not hints.is_empty():
				cards = (hints[0].play.cards if hints[0].play != null else PackedInt32Array())
			if cards.is_empty() and table.can_pass:
				table._on_pass_pressed()
			else:
				if cards.is_empty():
					cards = PackedInt32Array([table.hand.display_order()[0]])
				table.hand.set_selected(cards)
				table.play_selection(-1)
	expect(not ended.is_empty(), "the guided deal was played to its end")
	var texts: Dictionary = guide.explained()
	print("guide: steps %s" % [texts.keys()])
	for step in [&"wild", &"lead", &"follow", &"pass", &"partner", &"out", &"bomb"]:
		expect(texts.has(step), "the guide explained: %s (saw %s)" % [step, texts.keys()])
	for step: StringName in texts:
		var t: String = texts[step]
		expect(t != "" and not ("{" in t) and not t.begins_with("GUIDE_"), "%s reads well: %s" % [step, t])
	expect(guide._panel.is_visible_in_tree(), "the guide writes in the sidebar")


## The main menu offers the guided first deal to a player who has finished no deal (issue 24:
## it was only at the bottom of the Rules page).
func test_the_menu_offers_the_guided_deal_to_a_new_player() -> void:
	var menu_script: GDScript = load("res://menu/main_menu.gd")
	expect(menu_script.offers_guided_deal(null), "no statistics: offered")
	expect(menu_script.offers_guided_deal(StatsRecord.of(0, 0, 1, 0, 0)),
		"an unfinished training with no finished deal: offered")
	expect(not menu_script.offers_guided_deal(StatsRecord.of(1, 0, 0, 3, 0)), "finished deals: not offered")
	# Another player's deals do not count: the local player's figures are looked up by name.
	expect(RecordLibrary.local_figures(null) == null, "no statistics: no figures")
	Settings.set_value(&"anim_speed", 0.0)
	var app: Control = load("res://ui/app.tscn").instantiate()
	add_child(app)
	expect(await wait_until(func() -> bool: return app.current_name == &"menu" and app.current.is_node_ready()), "the menu")
	var button: Button = app.current.get_node("%GuidedDeal")
	var me := RecordLibrary.local_figures(RecordLibrary.stats())
	expect_eq(button.visible, menu_script.offers_guided_deal(me.record if me != null else null), "shown as the statistics say")
	button.visible = true
	button.pressed.emit()
	expect(await wait_until(func() -> bool: return app.current_name == &"table" and app.current.is_node_ready()), "a table")
	expect(app.current.config.guided, "the guided first deal")
	app.queue_free()
	await frames(3)
