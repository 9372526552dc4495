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


func test_the_end_of_match_panel_fills_its_labels() -> void:
	var panel := MatchEndPanel.create()
	add_child(panel)
	panel.fill("Team won at A", "Final levels: A / 9")
	await frames(1)
	expect_eq((panel.get_node(^"%Reason") as Label).text, "Team won at A")
	expect_eq((panel.get_node(^"%FinalLevels") as Label).text, "Final levels: A / 9")
	panel.queue_free()


## The end of a deal on the table (DealCeremony's parts): the plaque's tiles show the old levels,
## then the tile of a team that moved flips to the new one; a finisher's portrait steps forward and
## comes back to its seat. Without animations the new levels stand at once.
func test_the_plaque_flips_to_the_new_levels_and_a_finisher_steps_back_home() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	var plaque: LevelPlaque = load("res://table/level_plaque.tscn").instantiate()
	add_child(plaque)
	await frames(1)
	plaque.show_levels(PackedInt32Array([5, 2]), 5)
	plaque.flip_from(PackedInt32Array([2, 2]), 0.05, 0.2)
	expect(String(plaque.shown().us).ends_with(" 2"), "the old level first: %s" % plaque.shown().us)
	expect(String(plaque.shown().them).ends_with(" 2"), "a team that stays stays: %s" % plaque.shown().them)
	expect(await Waits.until(get_tree(), func() -> bool: return String(plaque.shown().us).ends_with(" 5"), 5.0),
		"then the tile flips to the new level")
	var tile := plaque.get_node(^"%UsTile") as Control
	expect(await Waits.until(get_tree(), func() -> bool: return is_equal_approx(tile.scale.y, 1.0), 5.0), "and lies flat again")
	var badge := SeatBadge.create(2)
	add_child(badge)
	await frames(2)
	var face := badge.avatar()
	var home := face.position
	badge.step_forward(0.0, 0.05, face.get_global_rect().get_center() + Vector2(0, 200))
	expect(await Waits.until(get_tree(), func() -> bool: return face.position.y > home.y + 1.0, 5.0), "the portrait steps toward the table")
	expect(await Waits.until(get_tree(), func() -> bool: return face.position == home and face.scale == Vector2.ONE, 5.0),
		"and goes back to its seat")
	# Animations off: the new levels at once.
	Settings.set_value(&"anim_speed", 0.0)
	plaque.show_levels(PackedInt32Array([6, 2]), 6)
	plaque.flip_from(PackedInt32Array([5, 2]), 0.0, 0.0)
	expect(String(plaque.shown().us).ends_with(" 6"), "no flip without animations")
	plaque.queue_free()
	badge.queue_free()
	# Low-performance mode skips the ceremony's movement (the medals and levels simply stand).
	var pacing: PacingProfile = load("res://resources/style/pacing_default.tres")
	Settings.set_value(&"anim_speed", 1.0)
	var moving := DealCeremony.timings(pacing)
	expect(moving.x > 0.0 and moving.y > 0.0, "the ceremony moves with animations on: %s" % moving)
	Settings.set_value(&"low_perf", true)
	expect_eq(DealCeremony.timings(pacing), Vector2.ZERO, "no steps and no flip in low-performance mode")
