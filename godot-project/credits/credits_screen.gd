class_name CreditsScreen
extends Control
## Credits (main menu → Credits): every third-party asset and library in the game with its
## licence, from credits.cfg (a file the designers edit; see its header), in the player's language.
## Each entry shows its name, copyright, licence, files and source, and a button that shows the
## full licence text shipped with it. Godot's entry also lists the engine's own third-party parts
## (Engine.get_copyright_info()).

const CREDITS_PATH := "res://credits/credits.cfg"
const TITLE_COLOR := Color(0.98, 0.85, 0.45)
const DIM_COLOR := Color(0.85, 0.88, 0.85)

@onready var _content: VBoxContainer = %Content


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"menu"))
	for entry in entries():
		_add_entry(entry)
	(func() -> void:
		if is_inside_tree():
			%Back.grab_focus()).call_deferred()


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
	if not str(entry.by).is_empty():
		lines.append(entry.by)
	lines.append(tr("CREDITS_LICENCE_FMT").format({licence = entry.licence}))
	if not (entry.files as Array).is_empty():
		var shown: Array[String] = []
		for f: String in entry.files:
			shown.append(f.trim_prefix("res://"))
		lines.append(tr("CREDITS_FILES_FMT").format({files = ", ".join(shown)}))
	if not str(entry.source).is_empty():
		lines.append(tr("CREDITS_SOURCE_FMT").format({source = entry.source}))
	var note := localized(entry, "note")
	if not note.is_empty():
		lines.append(note)
	if entry.id == "godot":
		lines.append(tr("CREDITS_ENGINE_PARTS_FMT").format({parts = _engine_parts()}))
	var body := UiKit.label("\n".join(lines), 20, DIM_COLOR)
	body.name = "Body"
	body.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	body.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	body.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	box.add_child(body)
	var text := licence_text(entry)
	if not text.is_empty():
		var full := UiKit.label(text, 18, DIM_COLOR)
		full.name = "LicenceText"
		full.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		full.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		full.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		full.visible = false
		var toggle := UiKit.button("CREDITS_SHOW_LICENCE", Callable(), 22, Vector2(280, 52))
		toggle.name = "ShowLicence"
		toggle.size_flags_horizontal = Control.SIZE_SHRINK_BEGIN
		toggle.pressed.connect(func() -> void:
			full.visible = not full.visible
			toggle.text = "CREDITS_HIDE_LICENCE" if full.visible else "CREDITS_SHOW_LICENCE")
		box.add_child(toggle)
		box.add_child(full)
	var rule := HSeparator.new()
	rule.modulate = Color(1, 1, 1, 0.35)
	_content.add_child(rule)


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
