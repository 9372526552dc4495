extends GdTestSuite
## Settings (saved to a cfg file, bad values refused, locale applied), the generated assets (the
## bundled CJK font covers every translated character, every sound loads), the translations (both
## languages have every key the UI uses) and the sound bus following volume and mute.

const TMP := "user://test_settings.cfg"


func after_each() -> void:
	DirAccess.remove_absolute(ProjectSettings.globalize_path(TMP))
	Settings.reset_for_tests()


func test_settings_save_and_load() -> void:
	Settings.use_file_for_tests(TMP)
	var changes: Array = []
	var on_changed := func(key: StringName, value: Variant) -> void: changes.append([key, value])
	Settings.changed.connect(on_changed)
	Settings.set_value(&"sfx_volume", 0.25)
	Settings.set_value(&"anim_speed", 2.0)
	Settings.set_value(&"confirm_play", true)
	Settings.set_value(&"card_size", 1.15)
	Settings.changed.disconnect(on_changed)
	expect_eq(changes.size(), 4, "each change announced")
	var file := ConfigFile.new()
	expect_eq(file.load(TMP), OK, "saved to the file")
	expect_eq(file.get_value("settings", "sfx_volume"), 0.25)
	Settings.load_from(TMP)
	expect_eq(Settings.get_value(&"anim_speed"), 2.0, "read back")
	expect_eq(Settings.get_value(&"confirm_play"), true)


func test_bad_values_are_refused() -> void:
	Settings.use_file_for_tests("")
	Settings.set_value(&"sfx_volume", 3.0)
	expect_logged("bad value")
	Settings.set_value(&"anim_speed", 0.7)
	expect_logged("bad value")
	Settings.set_value(&"no_such_key", 1)
	expect_logged("unknown key")
	expect_eq(Settings.get_value(&"sfx_volume"), 0.8, "unchanged")
	# A hand-edited file with wrong types falls back to the defaults.
	var file := ConfigFile.new()
	file.set_value("settings", "anim_speed", "fast")
	file.set_value("settings", "history_rounds", 9)
	file.set_value("settings", "hints", false)
	file.save(TMP)
	Settings.load_from(TMP)
	expect_eq(Settings.get_value(&"anim_speed"), 1.0)
	expect_eq(Settings.get_value(&"history_rounds"), 4)
	expect_eq(Settings.get_value(&"hints"), false, "good values are kept")


func test_locale_switch_translates_the_menu() -> void:
	Settings.use_file_for_tests("")
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	var title := menu.find_child("Title", true, false) as Label
	var training := menu.find_child("Training", true, false) as Button
	Settings.set_value(&"locale", "en")
	await frames(1)
	expect_eq(tr(title.text), "掼蛋 Guandan")
	Settings.set_value(&"locale", "zh_CN")
	expect_eq(TranslationServer.get_locale(), "zh_CN")
	expect_eq(tr("MENU_TRAINING"), "训练模式")
	Settings.set_value(&"locale", "en")
	expect_eq(tr("MENU_TRAINING"), "Training")


func test_volume_and_mute_drive_the_sfx_bus() -> void:
	Settings.use_file_for_tests("")
	var bus := AudioServer.get_bus_index(&"Sfx")
	expect(bus > 0, "Sfx bus exists")
	Settings.set_value(&"sfx_volume", 0.5)
	expect(absf(AudioServer.get_bus_volume_db(bus) - linear_to_db(0.5)) < 0.01, "volume in dB")
	Settings.set_value(&"muted", true)
	expect(AudioServer.is_bus_mute(bus), "muted")
	Settings.set_value(&"muted", false)
	expect(not AudioServer.is_bus_mute(bus))
	Sfx.play(&"bomb")
	expect_eq(Sfx.history[-1], &"bomb", "the sound was asked for")


func test_every_sound_loads() -> void:
	for name in Sfx.SOUNDS:
		var stream := load("res://audio/sfx/%s.wav" % name) as AudioStream
		expect(stream != null and stream.get_length() > 0.02, "sound %s" % name)


func test_font_covers_every_translated_character() -> void:
	var font := load("res://fonts/guandan_sans.otf") as FontFile
	var bold := load("res://fonts/guandan_sans_bold.otf") as FontFile
	var missing := {}
	for po in ["res://i18n/en.po", "res://i18n/zh_CN.po"]:
		for line in FileAccess.get_file_as_string(po).split("\n"):
			if not line.begins_with("msgstr"):
				continue
			for ch in line.trim_prefix("msgstr "):
				var code := ch.unicode_at(0)
				if code > 32 and (not font.has_char(code) or not bold.has_char(code)):
					missing[ch] = true
	expect(missing.is_empty(), "characters missing from the bundled font (run tools/gen-assets): %s" % "".join(missing.keys()))
	for glyph in Cards.SUIT_GLYPHS:
		expect(font.has_char(glyph.unicode_at(0)), "suit %s" % glyph)


## Texts read cleanly (issue 24: "The eight cards of the level rank rank above A.", "a bomb….",
## "1 deals"): no word doubled, no stop after an ellipsis or a second stop, in both languages; a
## count of one is singular.
func test_translations_read_cleanly() -> void:
	var doubled := RegEx.create_from_string("(?i)\\b(\\w+) \\1\\b")
	var stops := RegEx.create_from_string("…[.。]|[.。]{2}|。…")
	var checked := 0
	for po in ["res://i18n/en.po", "res://i18n/zh_CN.po"]:
		for line in FileAccess.get_file_as_string(po).split("\n"):
			if not line.begins_with("msgstr \"") or line == "msgstr \"\"":
				continue
			checked += 1
			var text := line.trim_prefix("msgstr \"").trim_suffix("\"")
			expect(doubled.search(text) == null, "%s: a doubled word in \"%s\"" % [po.get_file(), text])
			expect(stops.search(text) == null, "%s: stops after an ellipsis in \"%s\"" % [po.get_file(), text])
	expect(checked > 300, "read the translations (%d)" % checked)
	TranslationServer.set_locale("en")
	var ReplayList := load("res://replay/replay_list.gd")
	var one: String = ReplayList.describe("match_2026-01-02_03-04-05_1", RecordSummary.of("match_2026-01-02_03-04-05_1", "training", 1, PackedInt32Array([3, 2])))
	expect(one.contains("1 deal ") or one.ends_with("1 deal"), "one deal: %s" % one)
	expect(not one.contains("1 deals"), one)
	expect(ReplayList.describe("x", RecordSummary.of("x", "", 2, PackedInt32Array())).contains("2 deals"))
	expect_eq(UiKit.count_text("STATS_N_MATCHES_FMT", 1), "1 match")
	TranslationServer.set_locale("zh_CN")
	expect_eq(UiKit.count_text("STATS_DEALS_FMT", 1), "1 副牌")
	expect_eq(UiKit.count_text("STATS_DEALS_FMT", 3), "3 副牌")
	TranslationServer.set_locale("en")


func test_both_languages_have_every_ui_key() -> void:
	var keys := {}
	for po in ["res://i18n/en.po", "res://i18n/zh_CN.po"]:
		var set := {}
		for line in FileAccess.get_file_as_string(po).split("\n"):
			if line.begins_with("msgid \"") and line != "msgid \"\"":
				var key := line.trim_prefix("msgid \"").trim_suffix("\"")
				# A key twice: one of its texts is silently lost (SEAT_SOUTH was, in both files).
				expect(not set.has(key), "%s names %s twice" % [po.get_file(), key])
				set[key] = true
		keys[po] = set
	var en: Dictionary = keys["res://i18n/en.po"]
	var zh: Dictionary = keys["res://i18n/zh_CN.po"]
	for k: String in en:
		expect(zh.has(k), "zh_CN has %s" % k)
	for k: String in zh:
		expect(en.has(k), "en has %s" % k)
	# Every key the UI code names is translated.
	var used := 0
	var re := RegEx.create_from_string("\"((?:[A-Z][A-Z0-9]+_)+[A-Z0-9]+|(?:play|reason)\\.[a-z_]+)\"")
	for dir in ["res://bridge", "res://hand", "res://table", "res://menu", "res://replay", "res://settings", "res://ui", "res://help"]:
		for file in DirAccess.get_files_at(dir):
			if not file.ends_with(".gd"):
				continue
			var text := FileAccess.get_file_as_string(dir.path_join(file))
			for m in re.search_all(text):
				var key := m.get_string(1)
				if key.ends_with("_") or key.begins_with("PHASE_") or key.begins_with("MOUSE_") or key.begins_with("KEY_"):
					continue
				expect(en.has(key), "%s/%s uses %s, which has no translation" % [dir, file, key])
				used += 1
	expect(used > 80, "found the keys the UI uses (%d)" % used)
	for engine_key in ["play.single", "play.pair", "play.trips", "play.three_with_two", "play.straight",
			"play.three_pair", "play.two_trips", "play.straight_flush", "play.bomb", "play.four_kings",
			"reason.go_out", "reason.bomb_to_stop", "reason.feed_partner", "reason.lead_weak_group",
			"reason.take_lead", "reason.pass_partner_winning", "reason.pass_save_cards", "reason.tribute_forced",
			"reason.return_least_useful", "reason.pass_cannot_beat", "reason.splits_group", "reason.lead_plain",
			"reason.lead_shed_many", "reason.beat_cheapest", "reason.beat_table", "reason.bomb_over_partner",
			"reason.beat_cheapest_whole", "reason.beat_keep_sequence", "reason.beat_high_danger",
			"reason.beat_costlier", "reason.top_keeps_group", "reason.pass_keep_cheapest", "reason.pass_keep_sequence",
			"play.pass", "reason.learned_shape", "reason.learned_control", "reason.learned_kind",
			"reason.learned_wilds", "reason.learned_partners",
			"GUIDE_HAND", "GUIDE_WILD", "GUIDE_LEAD", "GUIDE_FOLLOW", "GUIDE_PASS", "GUIDE_BOMB", "GUIDE_PARTNER", "GUIDE_OUT"]:
		expect(en.has(engine_key) and zh.has(engine_key), "engine key %s translated" % engine_key)


## The learned ranker's reason names the play made and L2's; a pass has no rank, and its empty
## argument leaves no double space (en) or space before the punctuation (zh_CN).
func test_a_learned_reason_reads_in_both_languages() -> void:
	var before := TranslationServer.get_locale()
	TranslationServer.set_locale("en")
	var en := PlayText.reason("reason.learned_control", ["Pair", "K", "Pass", ""])
	expect(en.begins_with("Pair K rather than Pass:"), en)
	expect(not en.contains("  ") and not en.contains("{"), en)
	TranslationServer.set_locale("zh_CN")
	var zh := PlayText.reason("reason.learned_shape", ["Pass", "", "Straight", "9"])
	expect(zh.begins_with("不出，而不是顺子 9："), zh)
	expect(not zh.contains(" ，") and not zh.contains("{"), zh)
	TranslationServer.set_locale(before)
