class_name CreditsScreen
extends Control
## Credits (main menu → Credits), written for players: what the game made itself, then every
## third-party asset and library from credits.cfg (a file the designers edit; see its header), in
## the player's language. Each entry says what it is (its name and what the game uses it for), who
## made it and its licence; the file paths, package names and sources are behind its Details
## button (Godot's with the engine's own third-party parts, Engine.get_copyright_info()), and a
## second button shows the full licence text shipped with it.

const CREDITS_PATH := "res://credits/credits.cfg"
const TITLE_COLOR := Color(0.98, 0.85, 0.45)
const DIM_COLOR := Color(0.85, 0.88, 0.85)
## Lines a block of licence text holds at most. A licence is laid down as a column of such blocks
## so the renderer skips those off screen: one Label of the Rust crates' texts (≈ 190 KB, 4,000
## lines) would be drawn whole whenever any of it shows.
const LICENCE_BLOCK_LINES := 40

@onready var _content: VBoxContainer = %Content


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	# The list ends above the backdrop's rim (it crossed the text): a spacer as tall as the rim's
	# band takes the column's foot.
	var rim_room := Control.new()
	rim_room.name = "RimRoom"
	rim_room.mouse_filter = Control.MOUSE_FILTER_IGNORE
	%Content.get_parent().get_parent().add_child(rim_room)
	resized.connect(_keep_off_rim, CONNECT_DEFERRED)
	_keep_off_rim.call_deferred()
	_add_own()
	for entry in entries():
		_add_entry(entry)
	_focus_back.call_deferred()


## Deferred as a method (a deferred lambda of a freed screen pointed at freed memory).
func _focus_back() -> void:
	if is_inside_tree():
		%Back.grab_focus()


## Sizes the RimRoom spacer so the column's content ends where the backdrop's clear part ends.
func _keep_off_rim() -> void:
	if not is_inside_tree():
		return
	var backdrop := $AreaBackdrop as AreaBackdrop
	var column := %Content.get_parent().get_parent() as Control
	var room := column.get_node(^"RimRoom") as Control
	var clear_end := (backdrop.get_global_transform() * backdrop.clear_rect()).end.y
	var sep := float(column.get_theme_constant(&"separation"))
	var want := maxf(ceilf(column.get_global_rect().end.y - clear_end - sep), 0.0)
	if not is_equal_approx(room.custom_minimum_size.y, want):
		room.custom_minimum_size.y = want


## The entries of credits.cfg in file order, each a Dictionary with its section as `id` and the
## keys of the file (missing keys are empty). Fails loudly (push_error) if the file is unreadable.
static func entries(path := CREDITS_PATH) -> Array[Dictionary]:
	var cfg := ConfigFile.new()
	var err := cfg.load(path)
	var out: Array[Dictionary] = []
	if err != OK:
		push_error("credits: cannot read %s (%s)" % [path, error_string(err)])
		return out
	for section in cfg.get_sections():
		var e := {id = section}
		for key in ["name_en", "name_zh", "by", "licence", "licence_file", "source", "note_en", "note_zh"]:
			e[key] = str(cfg.get_value(section, key, ""))
		var files: Array = cfg.get_value(section, "files", [])
		e.files = files
		out.append(e)
	return out


## The full licence text of an entry ("" if it names no file).
static func licence_text(entry: Dictionary) -> String:
	var file: String = entry.licence_file
	if file == "engine":
		return Engine.get_license_text()
	if file.is_empty():
		return ""
	var f := FileAccess.open(file, FileAccess.READ)
	if f == null:
		push_error("credits: licence file %s missing (%s)" % [file, entry.id])
		return ""
	return f.get_as_text()


## `text` cut into blocks of at most `most` lines, each ending at a blank line where one is in its
## second half; joined with "\n" they are `text` again.
static func licence_blocks(text: String, most := LICENCE_BLOCK_LINES) -> PackedStringArray:
	var lines := text.split("\n")
	var out := PackedStringArray()
	var start := 0
	while start < lines.size():
		var end := mini(start + most, lines.size())
		var cut := end
		while end < lines.size() and cut > start + most / 2 and not lines[cut - 1].strip_edges().is_empty():
			cut -= 1
		if end < lines.size() and cut > start + most / 2:
			end = cut
		out.append("\n".join(lines.slice(start, end)))
		start = end
	return out


## Whether a res:// path is one of an entry's files (its patterns may use "*").
static func covers(entry: Dictionary, path: String) -> bool:
	for pattern: String in entry.files:
		if path == pattern or path.match(pattern):
			return true
	return false


## The text of a bilingual key of an entry ("name", "note") in the current language.
static func localized(entry: Dictionary, key: String) -> String:
	var zh := TranslationServer.get_locale().begins_with("zh")
	var text: String = entry.get(key + ("_zh" if zh else "_en"), "")
	return text if not text.is_empty() else str(entry.get(key + "_en", ""))


## Opens or closes an entry's licence text, laying its blocks down the first time.
func _toggle_licence(full: VBoxContainer, toggle: Button, text: String) -> void:
	if full.get_child_count() == 0:
		for block in licence_blocks(text):
			var label := UiKit.label(block, 18, DIM_COLOR)
			label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
			label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
			label.size_flags_horizontal = Control.SIZE_EXPAND_FILL
			full.add_child(label)
	full.visible = not full.visible
	toggle.text = "CREDITS_HIDE_LICENCE" if full.visible else "CREDITS_SHOW_LICENCE"


## What the game made itself, first: most of what a player sees.
func _add_own() -> void:
	var box := UiKit.vbox(4)
	box.name = "Entry_own"
	_content.add_child(box)
	box.add_child(UiKit.label("CREDITS_OWN", 26, TITLE_COLOR))
	var text := UiKit.label("CREDITS_OWN_TEXT", 20, DIM_COLOR)
	text.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	text.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	box.add_child(text)
	var rule := HSeparator.new()
	rule.modulate = Color(1, 1, 1, 0.35)
	_content.add_child(rule)


func _add_entry(entry: Dictionary) -> void:
	var box := UiKit.vbox(4)
	box.name = "Entry_" + str(entry.id)
	_content.add_child(box)
	var title := UiKit.label(localized(entry, "name"), 26, TITLE_COLOR)
	title.name = "Name"
	title.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	title.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	box.add_child(title)
	var lines: Array[String] = []
	var note := localized(entry, "note")
	if not note.is_empty():
		lines.append(note)
	if not str(entry.by).is_empty():
		lines.append(entry.by)
	lines.append(tr("CREDITS_LICENCE_FMT").format({licence = entry.licence}))
	var body := UiKit.label("\n".join(lines), 20, DIM_COLOR)
	body.name = "Body"
	body.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	body.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	body.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	box.add_child(body)
	var buttons := UiKit.hbox(12)
	buttons.name = "Buttons"
	box.add_child(buttons)
	# The paths and package names, for those who want them: folded away.
	var details := UiKit.label("\n".join(detail_lines(entry)), 17, Color(DIM_COLOR, 0.8))
	details.name = "Details"
	details.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	details.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	details.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	details.visible = false
	var more := UiKit.button("CREDITS_SHOW_DETAILS", Callable(), 20, Vector2(160, 48))
	more.name = "ShowDetails"
	more.pressed.connect(func() -> void:
		details.visible = not details.visible
		more.text = "CREDITS_HIDE_DETAILS" if details.visible else "CREDITS_SHOW_DETAILS")
	buttons.add_child(more)
	var text := licence_text(entry)
	# Filled with the text's blocks when first opened.
	var full := UiKit.vbox(0)
	full.name = "LicenceText"
	full.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	full.visible = false
	if not text.is_empty():
		var toggle := UiKit.button("CREDITS_SHOW_LICENCE", Callable(), 20, Vector2(240, 48))
		toggle.name = "ShowLicence"
		toggle.pressed.connect(_toggle_licence.bind(full, toggle, text))
		buttons.add_child(toggle)
	box.add_child(details)
	if not text.is_empty():
		box.add_child(full)
	else:
		full.free()
	var rule := HSeparator.new()
	rule.modulate = Color(1, 1, 1, 0.35)
	_content.add_child(rule)


## The lines behind an entry's Details button: its files, where they came from, and for Godot
## the engine's own third-party parts.
func detail_lines(entry: Dictionary) -> Array[String]:
	var lines: Array[String] = []
	if not (entry.files as Array).is_empty():
		var shown: Array[String] = []
		for f: String in entry.files:
			shown.append(f.trim_prefix("res://"))
		lines.append(tr("CREDITS_FILES_FMT").format({files = ", ".join(shown)}))
	if not str(entry.source).is_empty():
		lines.append(tr("CREDITS_SOURCE_FMT").format({source = entry.source}))
	if entry.id == "godot":
		lines.append(tr("CREDITS_ENGINE_PARTS_FMT").format({parts = _engine_parts()}))
	return lines


## Names and licences of Godot's own third-party components: "FreeType (FTL), …".
static func _engine_parts() -> String:
	var licences := {}
	for part: Dictionary in Engine.get_copyright_info():
		for piece: Dictionary in part.get("parts", []):
			licences[part.name] = str(piece.get("license", ""))
			break
	var out: Array[String] = []
	for name: String in licences:
		out.append("%s (%s)" % [name, licences[name]] if not str(licences[name]).is_empty() else name)
	return ", ".join(out)
