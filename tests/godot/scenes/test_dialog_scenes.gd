extends GdTestSuite
## The dialog and the end panels are composed scenes whose scripts only fill them: Modal.create()
## fills %Title, %Lines (text lines copy %LineTemplate) and %Buttons and clears them on reopening;
## the end-of-deal panel puts its lines in %Places, %Levels and %CardsLeft; the end-of-match
## panel in %Reason and %FinalLevels.


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


func _texts(box: Node) -> PackedStringArray:
	var out := PackedStringArray()
	for c in box.get_children():
		if c is Label and not c.is_queued_for_deletion():
			out.append((c as Label).text)
	return out


func test_the_modal_fills_and_clears_its_scene_nodes() -> void:
	var modal := Modal.create()
	add_child(modal)
	await frames(1)
	expect(not modal.is_open(), "closed until opened")
	var extra := Label.new()
	extra.name = "Extra"
	modal.open("First", ["one", "two", extra], [[&"a", "BTN_RESUME"], [&"b", "BTN_CANCEL"]])
	await frames(1)
	expect_eq((modal.get_node(^"%Title") as Label).text, "First")
	var lines := modal.get_node(^"%Lines")
	expect_eq(lines.get_child_count(), 3, "two text lines and the Control")
	expect_eq(_texts(lines), PackedStringArray(["one", "two", ""]), "texts in order, the Control as given")
	var template: Label = modal.get_node(^"%LineTemplate")
	var line := lines.get_child(0) as Label
	expect_eq(line.get_theme_font_size(&"font_size"), template.get_theme_font_size(&"font_size"), "lines copy the template")
	expect(line.visible and not template.visible, "the template stays hidden")
	expect_eq(modal.get_node(^"%Buttons").get_child_count(), 2, "two buttons")
	expect(modal.button(&"b") != null, "buttons by id")
	modal.press(&"a")
	modal.open("Second", [], [[&"c", "BTN_RESUME"], [&"a", "BTN_CANCEL"]])
	await frames(1)
	expect_eq((modal.get_node(^"%Title") as Label).text, "Second")
	expect_eq(lines.get_child_count(), 0, "the first panel's lines are gone")
	expect(not (lines as Control).visible, "no empty gap without lines")
	expect_eq(modal.get_node(^"%Buttons").get_child_count(), 2, "only the new buttons")
	expect(modal.button(&"b") == null and modal.button(&"c") != null, "old buttons gone")
	# Reopened at once (the pause menu after the rules page): a reused id still names its button.
	var again := modal.button(&"a")
	expect(again != null and again.text == "BTN_CANCEL", "the new panel's button of a reused id (%s)" % again)
	modal.press(&"c")
	modal.queue_free()


## Online the deal's panel closes when the server's break is over: `press_after` counts down on
## its button ("Next deal (2)") and presses it by itself; a press before, or a new panel, ends
## the countdown (before, the panel waited for the player while the server played on).
func test_a_panel_presses_its_button_by_itself_after_the_countdown() -> void:
	TranslationServer.set_locale("en")
	var modal := Modal.create()
	add_child(modal)
	await frames(1)
	var pressed := []
	modal.closed.connect(func(id: StringName) -> void: pressed.append(id))
	modal.open("Deal 1", [], [[&"next", "BTN_NEXT_DEAL"], [&"myself", "BTN_NEXT_DEAL_MYSELF"]])
	modal.press_after(&"next", 1.5)
	await frames(2)
	var label := tr("BTN_NEXT_DEAL")
	expect_eq(modal.button(&"next").text, "%s (2)" % label, "the button counts the seconds down")
	expect(modal.seconds_to_auto_press() > 1.0, "seconds left: %s" % modal.seconds_to_auto_press())
	expect(await wait_until(func() -> bool: return not pressed.is_empty(), 5.0), "pressed by itself")
	expect_eq(pressed, [&"next"], "the counted-down button")
	expect_eq(modal.seconds_to_auto_press(), 0.0, "nothing left to count once closed")
	# The player presses first: only that press.
	pressed.clear()
	modal.open("Deal 2", [], [[&"next", "BTN_NEXT_DEAL"], [&"myself", "BTN_NEXT_DEAL_MYSELF"]])
	modal.press_after(&"next", 0.3)
	modal.press(&"myself")
	# A panel opened next has no countdown of its own.
	modal.open("Match", [], [[&"menu", "BTN_MENU"]])
	await get_tree().create_timer(0.6).timeout
	expect_eq(pressed, [&"myself"], "the player's press, no automatic one after it")
	expect(modal.is_open(), "the next panel stays until pressed")
	modal.press(&"menu")
	modal.queue_free()


func test_the_end_of_deal_panel_fills_its_containers() -> void:
	var panel := DealEndPanel.create()
	add_child(panel)
	var rows: Array[Control] = [CardsLeftRow.create(1, "East still held:", PackedInt32Array([0, 1, 2]), 2)]
	panel.fill(PackedStringArray(["1st  South", "2nd  North"]), PackedStringArray(["Us 2 → 4", "Them 2 → 2"]), rows)
	await frames(1)
	expect_eq(_texts(panel.get_node(^"%Places")), PackedStringArray(["1st  South", "2nd  North"]), "places")
	expect_eq(_texts(panel.get_node(^"%Levels")), PackedStringArray(["Us 2 → 4", "Them 2 → 2"]), "levels")
	var left: Control = panel.get_node(^"%CardsLeft")
	expect(left.visible and left.get_node_or_null(^"CardsLeft1") != null, "the cards-left row sits in %CardsLeft")
	var none: Array[Control] = []
	panel.fill(PackedStringArray(["1st  West"]), PackedStringArray(), none)
	await frames(1)
	expect_eq(_texts(panel.get_node(^"%Places")), PackedStringArray(["1st  West"]), "refilled, not appended")
	expect(not left.visible and left.get_child_count() == 0, "no cards-left block when everyone went out")
	panel.queue_free()


func test_the_end_of_match_panel_fills_its_labels() -> void:
	var panel := MatchEndPanel.create()
	add_child(panel)
	panel.fill("Team won at A", "Final levels: A / 9")
	await frames(1)
	expect_eq((panel.get_node(^"%Reason") as Label).text, "Team won at A")
	expect_eq((panel.get_node(^"%FinalLevels") as Label).text, "Final levels: A / 9")
	panel.queue_free()


## The end of a deal as a ceremony: faces with medals in finishing order, a 双下 banner only when
## one team took both first places, and tiles that flip from the old level to the new one.
func test_the_end_of_deal_ceremony_shows_medals_and_flips_the_levels() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	var pacing: PacingProfile = load("res://resources/style/pacing_default.tres")
	var panel := DealEndPanel.create()
	add_child(panel)
	panel.fill(PackedStringArray(["1st  South", "2nd  North"]), PackedStringArray(["Us 2 → 5", "Them 2 → 2"]), [] as Array[Control])
	var finishers: Array[Dictionary] = []
	for i in 4:
		finishers.append({seat = [0, 2, 1, 3][i], name = ["South", "North", "East", "West"][i], place = i + 1, ai = i > 0, face_key = i})
	var tiles: Array[LevelTile] = [LevelTile.create("Us", Color.SEA_GREEN, "2", "5", 3), LevelTile.create("Them", Color.CRIMSON, "2", "2", 0)]
	panel.ceremony(finishers, tiles, "Double down!", pacing)
	await frames(1)
	expect(not panel.get_node(^"%Places").visible and panel.get_node(^"%Ceremony").visible, "the ceremony replaces the lines")
	var faces := panel.finisher_faces()
	expect_eq(faces.size(), 4, "four finishers")
	expect_eq(faces.map(func(f: SeatAvatar) -> int: return f.place), [1, 2, 3, 4], "medals in finishing order")
	expect_eq(faces.map(func(f: SeatAvatar) -> int: return f.seat), [0, 2, 1, 3], "each medal on its seat's face")
	expect((panel.get_node(^"%DoubleDown") as Label).visible, "双下 banner")
	var ours := panel.level_tiles()[0]
	expect_eq(ours.shown(), "2", "the old level first")
	expect(await Waits.until(get_tree(), func() -> bool: return ours.shown() == "5", 5.0), "then it flips to the new level")
	expect_eq((ours.get_node(^"%Change") as Label).text, "+3", "with the change")
	expect_eq(panel.level_tiles()[1].shown(), "2", "a team that stays stays")
	# Animations off: the final state at once; no banner without a double down.
	Settings.set_value(&"anim_speed", 0.0)
	var still: Array[LevelTile] = [LevelTile.create("Us", Color.SEA_GREEN, "5", "6", 1), LevelTile.create("Them", Color.CRIMSON, "2", "2", 0)]
	panel.ceremony(finishers, still, "", pacing)
	await frames(1)
	expect_eq(panel.level_tiles()[0].shown(), "6", "no flip without animations")
	expect(not (panel.get_node(^"%DoubleDown") as Label).visible, "no banner")
	panel.queue_free()
