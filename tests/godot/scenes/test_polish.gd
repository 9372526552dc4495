extends GdTestSuite
## Issue 13, finding 14, checked on the real theme and scenes: toggles show an Off state of their
## own, dropdown lists use themed opaque popups, the menu's language list offers "System",
## dialogs are opaque, and the seat badges' card back has no emblem under the card count. The
## screenshots of tools/style-shots show the same (out/screenshots/styles/).

const THEME := "res://ui/theme.tres"


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


func test_toggles_have_a_visible_off_state() -> void:
	var theme := load(THEME) as Theme
	var off := theme.get_icon(&"unchecked", &"CheckButton")
	var on := theme.get_icon(&"checked", &"CheckButton")
	expect(off != null and off.resource_path == "res://ui/toggle_off.svg", "the Off switch is the project's own")
	expect(on != null and on.resource_path == "res://ui/toggle_on.svg", "the On switch is the project's own")
	# The Off switch's track outline is light on the dark felt: its brightest pixels stand out.
	var img := off.get_image()
	var brightest := 0.0
	for y in img.get_height():
		for x in img.get_width():
			var c := img.get_pixel(x, y)
			if c.a > 0.9:
				brightest = maxf(brightest, c.get_luminance())
	expect(brightest > 0.7, "the Off switch has a light outline (%.2f)" % brightest)


func test_dropdowns_and_dialogs_are_themed_and_opaque() -> void:
	var theme := load(THEME) as Theme
	var popup := theme.get_stylebox(&"panel", &"PopupMenu") as StyleBoxFlat
	expect(popup != null and is_equal_approx(popup.bg_color.a, 1.0), "dropdown popups are opaque and themed")
	expect(theme.get_stylebox(&"hover", &"PopupMenu") is StyleBoxFlat, "hovered items are themed")
	expect_eq(theme.get_type_variation_base(&"DialogPanel"), &"PanelContainer", "DialogPanel is a panel variation")
	var dialog := theme.get_stylebox(&"panel", &"DialogPanel") as StyleBoxFlat
	expect(dialog != null and is_equal_approx(dialog.bg_color.a, 1.0), "dialogs are opaque")
	var modal := Modal.create()
	add_child(modal)
	modal.open("Title", ["text"], [[&"ok", "BTN_RESUME"]])
	await frames(2)
	expect_eq(modal.panel.theme_type_variation, &"DialogPanel", "the table's dialogs use it")
	var box := modal.panel.get_theme_stylebox(&"panel") as StyleBoxFlat
	expect(box != null and is_equal_approx(box.bg_color.a, 1.0), "the open dialog draws an opaque panel")
	modal.press(&"ok")


func test_the_menu_language_list_offers_system() -> void:
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(1)
	var lang := menu.find_child("Language", true, false) as OptionButton
	expect_eq(lang.item_count, 3, "System, 中文, English")
	expect_eq(tr(lang.get_item_text(0)), "System")
	expect_eq(lang.selected, 2, "tests run in English, chosen explicitly")
	lang.select(0)
	lang.item_selected.emit(0)
	expect_eq(Settings.get_value(&"locale"), "", "System follows the system's language")
	menu.queue_free()


func test_a_seat_is_a_face_in_its_teams_ring_with_its_cards_left_on_a_chip() -> void:
	var style := SeatStyle.current()
	var east := SeatBadge.create(1)
	var north := SeatBadge.create(2)
	add_child(east)
	add_child(north)
	await frames(1)
	# The portrait is a face; the one card view left in the seat is the back its fan is made from.
	var views := east.find_children("*", "CardView", true, false)
	expect(views.size() == 1 and views[0].get_parent().get_parent() is BackFan,
		"no card back as the portrait any more: a face (card views: %s)" % [views])
	expect_eq(east.avatar().ring_color(), TableStyle.current().team_them_color, "east's ring: the other team's colour")
	expect_eq(north.avatar().ring_color(), TableStyle.current().team_us_color, "north's ring: our team's colour")
	var chip: Label = east.find_child("Count", true, false)
	expect(chip.visible and chip.text == "27", "the chip shows the cards left")
	var normal := (chip.get_theme_stylebox(&"normal") as StyleBoxFlat).bg_color
	east.count = east.warn_at
	expect_eq((chip.get_theme_stylebox(&"normal") as StyleBoxFlat).bg_color, style.chip_warn_color, "red at the warning count")
	expect(normal != style.chip_warn_color, "not red before")
	east.count = 0
	expect(not chip.visible, "no chip once out of cards")
	expect(east.avatar().out, "the face fades when the seat is out")
	east.ai_level = 2
	expect(east.avatar().ai, "an AI seat is drawn as a robot")
	east.place = 1
	expect_eq(east.avatar().place, 1, "the medal shows the finishing place")
	east.set_countdown(20.0)
	expect(is_equal_approx(east.countdown_left(), 1.0), "the ring starts full")
	await Waits.until(get_tree(), func() -> bool: return east.countdown_left() < 1.0, 2.0)
	expect(east.countdown_left() < 1.0 and east.countdown_left() > 0.0, "and runs down")
	east.set_countdown(0.0)
	expect_eq(east.countdown_left(), -1.0, "no ring without a turn")
	east.queue_free()
	north.queue_free()
