extends GdTestSuite
## The card art and its credits (issue 27): every file under res://cards/ has an entry in
## credits/credits.cfg with a licence shipped next to it, the Credits screen (main menu → Credits)
## shows every entry in both languages, the twelve court cards draw their full-face pictures (not
## the big-letter fallback; issue 39: the picture fills the face beside the index column), and the
## two full-art jokers are told apart.

const COURT_FILES := 12  # jack/queen/king × 4 suits
const SCREEN := "res://credits/credits_screen.tscn"


func after_each() -> void:
	Settings.reset_for_tests()


## Files under `dir` (recursively), without .import files and licence texts.
func _asset_files(dir: String) -> Array[String]:
	var out: Array[String] = []
	for sub in DirAccess.get_directories_at(dir):
		out.append_array(_asset_files(dir.path_join(sub)))
	for f in DirAccess.get_files_at(dir):
		if f.ends_with(".import") or f.begins_with("LICENSE"):
			continue
		out.append(dir.path_join(f))
	return out


func _credits_screen() -> Control:
	var screen: Control = load(SCREEN).instantiate()
	add_child(screen)
	await frames(2)
	return screen


func test_every_card_file_has_a_credits_entry_with_its_licence() -> void:
	var entries := CreditsScreen.entries()
	expect(entries.size() >= 4, "credits.cfg has the fonts, court figures, Godot and the Rust parts")
	var files := _asset_files("res://cards")
	# 12 PNGs and the SVGs they are rendered from: an empty folder must not pass.
	expect(files.size() >= COURT_FILES + 1, "card files found: %s" % [files])
	for path in files:
		var covered := entries.filter(func(e: Dictionary) -> bool: return CreditsScreen.covers(e, path))
		expect(not covered.is_empty(), "%s has a credits entry" % path)
		for e: Dictionary in covered:
			expect(not str(e.licence).is_empty(), "%s: the entry names its licence" % path)
			expect(not CreditsScreen.licence_text(e).is_empty(), "%s: its licence text is shipped" % path)
	# No stale entry: each shipped-asset pattern matches a file (bin/ is built, not shipped in git).
	var all_files := _asset_files("res://cards") + _asset_files("res://fonts")
	for e in entries:
		for pattern: String in e.files:
			if pattern.begins_with("res://bin/"):
				continue
			expect(all_files.any(func(p: String) -> bool: return p == pattern or p.match(pattern)),
				"%s: %s matches a file" % [e.id, pattern])
		expect(not str(e.name_en).is_empty() and not str(e.name_zh).is_empty(), "%s named in both languages" % e.id)
	# Licence texts are not resources: each export preset must include them by its include_filter.
	var presets := ConfigFile.new()
	expect_eq(presets.load("res://export_presets.cfg"), OK, "export presets")
	var preset_count := 0
	for section in presets.get_sections():
		if not section.begins_with("preset.") or section.ends_with(".options"):
			continue
		preset_count += 1
		var filters := str(presets.get_value(section, "include_filter", "")).split(",", false)
		for e in entries:
			var file: String = e.licence_file
			if not file.begins_with("res://"):
				continue
			var rel := file.trim_prefix("res://")
			expect(Array(filters).any(func(f: String) -> bool: return rel.matchn(f.strip_edges()) or file.matchn(f.strip_edges())),
				"%s: export preset %s includes %s" % [e.id, presets.get_value(section, "name", section), rel])
	expect(preset_count > 0, "export presets checked")
	var court := entries.filter(func(e: Dictionary) -> bool: return e.id == "court_cards")
	expect_eq(court.size(), 1, "the court pictures' entry")
	if court.size() == 1:
		expect(CreditsScreen.licence_text(court[0]).contains("GNU LESSER GENERAL PUBLIC LICENSE"), "LGPL text")
		expect(CreditsScreen.licence_text(court[0]).contains("Version 3"), "as LGPL 3")
		expect(str(court[0].by).contains("Chris Aguilar"), "its author")
		# The LGPL-3 is the GPL-3 plus permissions: its text must ship too.
		expect(FileAccess.file_exists("res://cards/court/LICENSE-GPL-3.txt"), "GPL-3 text beside it")


func test_the_credits_screen_lists_every_entry_in_both_languages() -> void:
	Settings.use_file_for_tests("")
	var entries := CreditsScreen.entries()
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		var screen: Control = await _credits_screen()
		var key := "name_zh" if locale == "zh_CN" else "name_en"
		for e in entries:
			var box := screen.find_child("Entry_" + str(e.id), true, false)
			expect(box != null, "%s: %s shown" % [locale, e.id])
			if box == null:
				continue
			expect_eq((box.get_node(^"Name") as Label).text, e[key], "%s: %s's name" % [locale, e.id])
			var body := (box.get_node(^"Body") as Label).text
			expect(body.contains(str(e.licence)), "%s: %s's licence shown" % [locale, e.id])
		var title := screen.find_child("Title", true, false) as Label
		expect_eq(title.text, "CREDITS_TITLE")
		expect_eq(screen.tr(title.text), "致谢" if locale == "zh_CN" else "Credits", "translated title")
		# The licence text opens and closes under its button.
		var court := screen.find_child("Entry_court_cards", true, false)
		var toggle := court.find_child("ShowLicence", true, false) as Button
		var text := court.get_node(^"LicenceText") as VBoxContainer
		expect(not text.visible, "licence text closed at first")
		toggle.pressed.emit()
		expect(text.visible and _shown(text).contains("LESSER GENERAL PUBLIC"), "licence text shown")
		toggle.pressed.emit()
		expect(not text.visible, "and hidden again")
		# Written for players (issue 39): what, who, licence; paths and package names only behind
		# each entry's Details button.
		for e in entries:
			var entry_box := screen.find_child("Entry_" + str(e.id), true, false)
			if entry_box == null:
				continue
			var said := (entry_box.get_node(^"Body") as Label).text
			for word in ["res://", "cards/", "fonts/", "tools/", "Debian package", "npm", "crates.io"]:
				expect(not said.contains(word), "%s: %s: no '%s' in what players read first: %s" % [locale, e.id, word, said])
			var details := entry_box.find_child("Details", true, false) as Label
			var more := entry_box.find_child("ShowDetails", true, false) as Button
			expect(details != null and not details.visible, "%s: %s: details folded at first" % [locale, e.id])
			if details != null and more != null:
				more.pressed.emit()
				expect(details.visible, "%s: %s: Details opens them" % [locale, e.id])
				if not str(e.source).is_empty():
					expect(details.text.contains(str(e.source)), "%s: %s: the source is in the details" % [locale, e.id])
				more.pressed.emit()
		expect(screen.find_child("Entry_own", true, false) != null, "what the game made itself comes first")
		# Godot's details list the engine's own third-party parts.
		var godot := screen.find_child("Entry_godot", true, false)
		expect((godot.find_child("Details", true, false) as Label).text.contains("FreeType"), "engine parts listed")
		expect(screen.find_child("Scroll", true, false) is ScrollContainer, "the list scrolls")
		screen.queue_free()
		await frames(1)


func test_the_menu_opens_the_credits() -> void:
	Settings.use_file_for_tests("")
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(1)
	var asked: Array[StringName] = []
	var on_screen := func(s: StringName) -> void: asked.append(s)
	EventBus.screen_requested.connect(on_screen)
	(menu.find_child("Credits", true, false) as Button).pressed.emit()
	EventBus.screen_requested.disconnect(on_screen)
	expect_eq(asked, [&"credits"] as Array[StringName], "Credits asks for the credits screen")
	var app_script: GDScript = load("res://ui/app.gd")
	expect_eq(app_script.get_script_constant_map().SCREENS.get(&"credits"), SCREEN, "the app knows it")
	var screen: Control = await _credits_screen()
	var back_asked: Array[StringName] = []
	var on_back := func(s: StringName) -> void: back_asked.append(s)
	EventBus.screen_requested.connect(on_back)
	(screen.find_child("Back", true, false) as Button).pressed.emit()
	EventBus.screen_requested.disconnect(on_back)
	expect_eq(back_asked, [&"menu"] as Array[StringName], "Back returns to the menu")


func test_court_cards_draw_their_figures() -> void:
	var keys := {}
	for suit in 4:
		for rank in [11, 12, 13]:
			var id: int = suit * 13 + rank - 2
			expect_eq(Cards.rank(id), rank)
			var tex := CardView.court_texture(id)
			expect(tex != null, "%s has a figure" % Cards.notation(id))
			if tex != null:
				keys[tex.resource_path] = true
				expect(tex.resource_path.begins_with("res://cards/court/"), tex.resource_path)
				# Sized for the biggest hand card on a 2340x1080 phone, with the deck's framed aspect.
				expect(tex.get_width() >= 150 and tex.get_width() <= 256, "%s width %d" % [tex.resource_path, tex.get_width()])
				expect(absf(float(tex.get_height()) / tex.get_width() - CardView.COURT_ASPECT) < 0.02, "aspect")
			var view: CardView = load("res://hand/card_view.tscn").instantiate()
			view.card_id = id
			view.size = Vector2(120, 168)
			add_child(view)
			await frames(2)
			expect_eq(view.face_art, &"court_texture", "%s drawn with its figure" % Cards.notation(id))
			var box := view.figure_rect()
			expect(Rect2(Vector2.ZERO, view.size).encloses(box), "figure inside the card")
			expect(box.position.x >= view.size.x * 0.24, "index column left free")
			# Full face: the picture fills most of the card, edge to edge in height.
			expect(box.get_area() >= 0.6 * view.size.x * view.size.y, "%s: the picture fills the face (%s)" % [Cards.notation(id), box])
			expect(box.size.y >= 0.9 * view.size.y, "%s: from the top edge to the bottom" % Cards.notation(id))
			var src := CardView.cover_region(tex.get_size(), box.size) if tex != null else Rect2()
			expect(absf(src.size.x / src.size.y - box.size.x / box.size.y) < 0.01, "drawn without stretching")
			view.queue_free()
	expect_eq(keys.size(), COURT_FILES, "twelve different figures")
	expect(CardView.court_texture(Cards.from_notation("SA")[0]) == null, "an ace has no figure")
	expect(CardView.court_texture(52) == null, "a joker has no deck figure")


func test_jokers_are_told_apart() -> void:
	var arts := {}
	for id in [52, 53]:
		var view: CardView = load("res://hand/card_view.tscn").instantiate()
		view.card_id = id
		view.size = Vector2(120, 168)
		add_child(view)
		await frames(2)
		arts[id] = [view.face_art, view.ink()]
		view.queue_free()
	expect_eq(arts[52][0], &"small_joker", "small joker drawn as ours")
	# Full art: the joker's picture is the same full-face box as a court card's.
	var probe: CardView = load("res://hand/card_view.tscn").instantiate()
	probe.size = Vector2(120, 168)
	expect(probe.figure_rect().get_area() >= 0.6 * 120 * 168, "the joker's picture fills the face")
	probe.free()
	expect_eq(arts[53][0], &"big_joker", "big joker drawn as ours")
	expect_ne(arts[52][1], arts[53][1], "different ink")
	expect(Cards.is_red(53) and not Cards.is_red(52), "the big one is the red one")


## At the table layout test's sizes (tests/godot/ui/test_table_layout.gd SIZES), with every licence
## text open: nothing sticks out sideways (long lines wrap), Back and the title are on screen, and
## the list scrolls instead of pushing anything off the bottom.
## The text an opened licence shows: its blocks' labels, in order.
func _shown(licence: VBoxContainer) -> String:
	var parts := PackedStringArray()
	for block in licence.get_children():
		parts.append((block as Label).text)
	return "\n".join(parts)


## Every licence is laid down in blocks of at most LICENCE_BLOCK_LINES lines that make up its
## whole text, cut at blank lines where a paragraph allows.
func test_licence_blocks_keep_the_whole_text() -> void:
	var texts := ["", "one line", "a\n\nb\n", "\n".join(range(100).map(func(i: int) -> String: return "line %d" % i))]
	for e in CreditsScreen.entries():
		texts.append(CreditsScreen.licence_text(e))
	for text: String in texts:
		var blocks := CreditsScreen.licence_blocks(text)
		expect_eq("\n".join(blocks), text, "blocks make up the text (%d characters)" % text.length())
		for block in blocks:
			expect(block.split("\n").size() <= CreditsScreen.LICENCE_BLOCK_LINES, "a block of %d lines" % block.split("\n").size())
	var paragraphs := "\n".join(range(30).map(func(i: int) -> String: return "word\nword\n"))
	for block in CreditsScreen.licence_blocks(paragraphs).slice(0, -1):
		expect(block.ends_with("\n"), "a block ends at a blank line: %s" % block.right(20))


## The Rust crates built into the extension ship their licence texts (tools/gen-licences): each
## crate with its version and licence, gdext's under the MPL, shown in many blocks.
func test_the_rust_crates_licences_are_shipped_in_full() -> void:
	Settings.use_file_for_tests("")
	var crates: Array = CreditsScreen.entries().filter(func(e: Dictionary) -> bool: return e.id == "rust_crates")
	expect_eq(crates.size(), 1, "the Rust crates' entry")
	if crates.is_empty():
		return
	var text := CreditsScreen.licence_text(crates[0])
	for words in ["serde_json ", "tungstenite ", "rustls ", "godot-core 0.5.5: MPL-2.0", "Mozilla Public License",
			"Permission is hereby granted", "Apache License"]:
		expect(text.contains(words), "the crates' licences name '%s'" % words)
	var screen: Control = await _credits_screen()
	var entry := screen.find_child("Entry_rust_crates", true, false)
	var toggle := entry.find_child("ShowLicence", true, false) as Button
	var shown := entry.get_node(^"LicenceText") as VBoxContainer
	toggle.pressed.emit()
	await frames(2)
	expect(shown.get_child_count() > 50, "laid down in blocks (%d)" % shown.get_child_count())
	expect_eq(_shown(shown), text, "the whole text")
	screen.queue_free()
	await frames(1)


func test_the_credits_screen_fits_every_layout_size() -> void:
	Settings.use_file_for_tests("")
	var vp := SubViewport.new()
	vp.disable_3d = true
	vp.size = Vector2i(1280, 720)
	add_child(vp)
	var screen: Control = load(SCREEN).instantiate()
	vp.add_child(screen)
	await frames(2)
	for toggle in screen.find_children("ShowLicence", "Button", true, false):
		(toggle as Button).pressed.emit()
	var scroll := screen.find_child("Scroll", true, false) as ScrollContainer
	for s: Vector2i in [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080), Vector2i(2560, 1080)]:
		vp.size = s
		await frames(3)
		var view := Rect2(Vector2.ZERO, Vector2(s))
		var checked := 0
		for c: Control in screen.find_children("*", "Control", true, false):
			if not c.is_visible_in_tree() or c is ScrollBar:
				continue
			var r := c.get_global_rect()
			checked += 1
			expect(r.position.x >= -0.5 and r.end.x <= s.x + 0.5, "%dx%d: %s inside sideways (%s)" % [s.x, s.y, screen.get_path_to(c), r])
			if not scroll.is_ancestor_of(c):
				expect(view.grow(0.5).encloses(r), "%dx%d: %s on screen (%s)" % [s.x, s.y, screen.get_path_to(c), r])
		expect(checked > 20, "%dx%d: controls checked (%d)" % [s.x, s.y, checked])
		expect(view.grow(0.5).encloses(scroll.get_global_rect()), "%dx%d: the list's box on screen" % [s.x, s.y])
		# The backdrop's rim crosses no text: the list and the top row end above it (issue 39's shots).
		var backdrop := screen.get_node(^"AreaBackdrop") as AreaBackdrop
		var clear := backdrop.get_global_transform() * backdrop.clear_rect()
		expect(clear.size.y < s.y * 0.95, "%dx%d: the rim takes the screen's foot (%s)" % [s.x, s.y, clear])
		for part: Control in [scroll, screen.find_child("Top", true, false)]:
			expect(clear.grow(0.5).encloses(part.get_global_rect()),
				"%dx%d: %s %s clear of the rim (%s)" % [s.x, s.y, part.name, part.get_global_rect(), clear])
		var content := screen.find_child("Content", true, false) as Control
		expect(content.size.y > scroll.size.y, "%dx%d: the open licences make the list scroll" % [s.x, s.y])
