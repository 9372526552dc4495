extends GdTestSuite
## The main menu fits every screen shape (issue 38, item 5; issue 39: a phone held upright too): at
## 2340×1080 (a phone), 1080×2340 (the same phone upright), 1024×768 (4:3) and 1280×720, in Chinese and in English, with every entry the menu can show at once
## (the online match to return to, Continue with its line, the guided first deal), every shown
## button lies wholly inside the view without scrolling, no two buttons overlap, and the version
## line overlaps none. The SubViewport stretches its canvas like the project's window does
## (canvas_items, aspect expand, from the 1280×720 base), so the Readability autoload gives the
## phone its floors (80 lp tap targets) as on a real phone. Upright (1080×2340, 720×1280) the
## menu must also use the phone's shape (issue 39): the title and options stand over the buttons
## in one column, and the menu's content spans at least half the view's height instead of a
## landscape strip in the middle of a tall screen.

const SIZES: Array[Vector2i] = [Vector2i(2340, 1080), Vector2i(1080, 2340), Vector2i(720, 1280), Vector2i(1024, 768), Vector2i(1280, 720)]
const LOCALES: Array[String] = ["zh_CN", "en"]
## Entries shown only in some states: all shown here, the fullest the menu gets.
const OPTIONAL: Array[String] = ["ReturnOnline", "Continue", "ContinueInfo", "GuidedDeal"]


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()


## A SubViewport of `px` pixels whose canvas is stretched like the project's root window.
static func stretched_viewport(px: Vector2i) -> SubViewport:
	var base := Vector2(ProjectSettings.get_setting("display/window/size/viewport_width"),
		ProjectSettings.get_setting("display/window/size/viewport_height"))
	var k := minf(px.x / base.x, px.y / base.y)
	var vp := SubViewport.new()
	vp.size = px
	vp.size_2d_override = Vector2i((Vector2(px) / k).round())
	vp.size_2d_override_stretch = true
	vp.disable_3d = true
	return vp


## Problems of the menu as shown in `vp` ([] when it fits).
static func layout_problems(menu: Control, where: String) -> Array[String]:
	var problems: Array[String] = []
	var view := menu.get_viewport().get_visible_rect()
	var buttons: Array[Control] = []
	for n in menu.find_children("*", "BaseButton", true, false):
		if (n as Control).is_visible_in_tree():
			buttons.append(n)
	if buttons.size() < 10:
		problems.append("%s: only %d buttons shown" % [where, buttons.size()])
	for b in buttons:
		var r := b.get_global_rect()
		if not view.encloses(r.grow(-0.5)):
			problems.append("%s: %s at %s is not inside the view %s" % [where, b.name, r, view.size])
	for i in buttons.size():
		for j in range(i + 1, buttons.size()):
			if buttons[i].get_global_rect().grow(-1.0).intersects(buttons[j].get_global_rect().grow(-1.0)):
				problems.append("%s: %s overlaps %s" % [where, buttons[i].name, buttons[j].name])
	var version := menu.find_child("Version", true, false) as Control
	var vr := version.get_global_rect()
	if not view.encloses(vr.grow(-0.5)):
		problems.append("%s: the version line at %s is not inside the view" % [where, vr])
	for b in buttons:
		if b.get_global_rect().intersects(vr):
			problems.append("%s: the version line overlaps %s" % [where, b.name])
	if view.size.y > view.size.x:
		var side := (menu.find_child("Side", true, false) as Control).get_global_rect()
		var group := (menu.find_child("Buttons", true, false) as Control).get_global_rect()
		if side.end.y > group.position.y + 0.5:
			problems.append("%s: upright, the title and options (%s) do not stand over the buttons (%s)" % [where, side, group])
		var content := side.merge(group)
		if content.size.y < view.size.y * 0.5:
			problems.append("%s: upright, the menu spans %d of the view's %d lp in height (under half)" % [where, content.size.y, view.size.y])
	return problems


func test_every_menu_button_is_on_screen_at_every_size_in_both_languages() -> void:
	var problems: Array[String] = []
	var looked := 0
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			var vp := stretched_viewport(px)
			add_child(vp)
			var menu: Control = load("res://menu/main_menu.tscn").instantiate()
			vp.add_child(menu)
			await frames(2)
			for entry in OPTIONAL:
				var c := menu.find_child(entry, true, false) as Control
				if c != null:
					c.visible = true
					if c is Label:
						(c as Label).text = tr("CONTINUE_HINT_FMT").format({mode = tr("MODE_TRAINING")})
			await frames(4)  # the Readability floors are applied deferred, then the layout settles
			problems.append_array(layout_problems(menu, "%s %dx%d" % [locale, px.x, px.y]))
			looked += 1
			vp.queue_free()
			await frames(1)
	expect_eq(looked, LOCALES.size() * SIZES.size(), "menus looked at")
	expect_eq(problems, [] as Array[String], "the main menu fits")
