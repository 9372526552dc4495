extends GdTestSuite
## The screens off the table laid out for a phone's landscape (issue 54): the online home, Account,
## Settings and the leaderboard at 1280×720, 1024×768 and 2340×1080, in Chinese and in English, in
## a SubViewport stretched like the game's window (2340×1080 is 1560×720 lp, with the phone's
## floors). The home's Quick match is wholly in sight. Each screen's content — everything shown but its top bar — is a centred column at most
## MAX_CONTENT lp wide, never a form stretched edge to edge; no shown control overlaps another; no
## text is cut (a label's lines all shown, a button's words inside it, a field's hint inside the
## field) or off the screen; a row's caption beside its control is on one line, at most two.
## Account and Settings fit the screen as a shipped app's do: nothing needs scrolling, nothing is
## cut by a scroll (fit_problems).

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]
const LOCALES: Array[String] = ["en", "zh_CN"]
const SCREENS: Array[String] = ["res://online/online_menu.tscn", "res://online/account.tscn",
	"res://settings/settings_screen.tscn", "res://online/leaderboard.tscn"]
## The widest a screen's content may be (lp; the window is 1280 lp across at 16:9, 1560 on a phone).
const MAX_CONTENT := 1160.0
## The most lines a row's caption (a Label beside its control in a grid) may wrap to.
const MAX_CAPTION_LINES := 2
## How far off the centre the content may sit (lp): a scroll bar's width.
const CENTRE_SLACK := 16.0

var _saved_client: Node


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"online_server", "127.0.0.1:1")
	Settings.set_value(&"online_nickname", "Ann")
	# A client of its own: the screens' own requests are refused at once, the same every run.
	_saved_client = Online.client
	Online.client = GuandanClient.new()
	add_child(Online.client)


func after_each() -> void:
	Online.client.queue_free()
	Online.client = _saved_client
	Settings.reset_for_tests()


## What is drawn for the player: buttons, fields and labels with text, shown and not scrolled out
## of sight.
static func shown_items(screen: Control) -> Array[Control]:
	var items: Array[Control] = []
	for n in screen.find_children("*", "Control", true, false):
		var c := n as Control
		if not c.is_visible_in_tree() or c is ScrollBar:
			continue
		if c is BaseButton or c is LineEdit or c is SpinBox or (c is Label and (c as Label).text != ""):
			if c.get_parent() is SpinBox:
				continue  # the SpinBox's own field
			if sight(c).size.x > 1.0 and sight(c).size.y > 1.0:
				items.append(c)
	return items


## The part of `c` in sight: its rect cut by every ScrollContainer it is in (a list scrolls; what
## it hides is not drawn).
static func sight(c: Control) -> Rect2:
	var r := c.get_global_rect()
	var up := c.get_parent()
	while up != null:
		if up is ScrollContainer:
			r = r.intersection((up as Control).get_global_rect())
		up = up.get_parent()
	return r


## The top bar (Back, the title, the links) spans the screen by design; the content is the rest.
static func _in_top_bar(c: Control) -> bool:
	var up := c.get_parent()
	while up != null:
		if up.name == &"Top":
			return true
		up = up.get_parent()
	return false


## Whether `c`'s text is cut: a label with lines hidden, or words wider than the control.
static func _text_cut(c: Control) -> String:
	if c is Label:
		var l := c as Label
		if l.autowrap_mode != TextServer.AUTOWRAP_OFF:
			if l.get_visible_line_count() < l.get_line_count():
				return "shows %d of its %d lines" % [l.get_visible_line_count(), l.get_line_count()]
			return ""
		var font := l.get_theme_font(&"font")
		var w := font.get_string_size(l.text, HORIZONTAL_ALIGNMENT_LEFT, -1, l.get_theme_font_size(&"font_size")).x
		if l.text_overrun_behavior == TextServer.OVERRUN_NO_TRIMMING and not l.clip_text:
			return ""  # its size is at least its text's
		if w > l.size.x + 1.0 and l.auto_translate_mode != Node.AUTO_TRANSLATE_MODE_DISABLED:
			return "is %d lp for %d lp of text" % [l.size.x, w]
		return ""
	if c is LineEdit:
		return _hint_cut(c as LineEdit)
	if c is Button and not (c is OptionButton) and (c as Button).text != "":
		var b := c as Button
		var font := b.get_theme_font(&"font")
		var w := font.get_string_size(b.tr(b.text) if b.auto_translate_mode != Node.AUTO_TRANSLATE_MODE_DISABLED else b.text,
			HORIZONTAL_ALIGNMENT_LEFT, -1, b.get_theme_font_size(&"font_size")).x
		if b.icon != null:
			w += b.icon.get_width()
		if w > b.size.x + 1.0:
			return "is %d lp for %d lp of text" % [b.size.x, w]
	return ""


## Whether `field`'s hint (its placeholder) is cut: wider than the room for text inside the field.
## Checked whether or not the field holds text now: the hint shows as soon as it is emptied.
static func _hint_cut(field: LineEdit) -> String:
	if field.placeholder_text == "":
		return ""
	var hint := field.tr(field.placeholder_text) if field.auto_translate_mode != Node.AUTO_TRANSLATE_MODE_DISABLED else field.placeholder_text
	var font := field.get_theme_font(&"font")
	var w := font.get_string_size(hint, HORIZONTAL_ALIGNMENT_LEFT, -1, field.get_theme_font_size(&"font_size")).x
	var box := field.get_theme_stylebox(&"normal")
	var room := field.size.x - box.get_margin(SIDE_LEFT) - box.get_margin(SIDE_RIGHT)
	if field.right_icon != null:
		room -= field.right_icon.get_width()
	elif field.clear_button_enabled:
		room -= field.get_theme_icon(&"clear").get_width()
	if w > room + 1.0:
		return "its hint '%s' is %d lp in %d lp of room" % [hint, w, room]
	return ""


## A setting's or a field's caption (a Label beside its control in a GridContainer) on more than
## two lines: a shipped app's row label reads at a glance, on one line, at most two.
static func _caption_too_tall(c: Control) -> String:
	if not (c is Label and c.get_parent() is GridContainer):
		return ""
	var l := c as Label
	if l.get_line_count() > MAX_CAPTION_LINES:
		return "wraps to %d lines (at most %d beside its control)" % [l.get_line_count(), MAX_CAPTION_LINES]
	return ""


## The problems of `screen` as shown ([] when it is laid out as it should be).
static func layout_problems(screen: Control, where: String) -> Array[String]:
	var problems: Array[String] = []
	var view := screen.get_viewport().get_visible_rect()
	var items := shown_items(screen)
	if items.size() < 6:
		problems.append("%s: only %d controls shown" % [where, items.size()])
		return problems
	var content := Rect2()
	for c in items:
		var r := sight(c)
		if not view.encloses(r.grow(-0.5)):
			problems.append("%s: %s at %s is off the screen %s" % [where, c.name, r, view.size])
		var cut := _text_cut(c)
		if cut != "":
			problems.append("%s: %s's text is cut (%s)" % [where, c.name, cut])
		var tall := _caption_too_tall(c)
		if tall != "":
			problems.append("%s: %s '%s' %s" % [where, c.name, c.tr((c as Label).text), tall])
		if not _in_top_bar(c):
			content = r if content.size == Vector2.ZERO else content.merge(r)
	if content.size.x > MAX_CONTENT + 0.5:
		problems.append("%s: the content is %d lp wide (at most %d): a stretched form" % [where, content.size.x, MAX_CONTENT])
	var off := absf(content.get_center().x - view.get_center().x)
	if off > CENTRE_SLACK:
		problems.append("%s: the content's centre is %d lp off the screen's" % [where, off])
	for i in items.size():
		for j in range(i + 1, items.size()):
			var a := items[i]
			var b := items[j]
			if a.is_ancestor_of(b) or b.is_ancestor_of(a):
				continue
			if sight(a).grow(-1.0).intersects(sight(b).grow(-1.0)):
				problems.append("%s: %s overlaps %s" % [where, a.name, b.name])
	return problems


## Whether `screen` fits its window: no scroll container needs scrolling (its content no taller or
## wider than itself) and every control shown lies wholly in sight ([] when it fits).
static func fit_problems(screen: Control, where: String) -> Array[String]:
	var problems: Array[String] = []
	for n in screen.find_children("*", "ScrollContainer", true, false):
		var sc := n as ScrollContainer
		if not sc.is_visible_in_tree():
			continue
		for child in sc.get_children():
			var c := child as Control
			if c == null or c is ScrollBar or not c.visible:
				continue
			var need := c.get_combined_minimum_size()
			if need.y > sc.size.y + 0.5 or need.x > sc.size.x + 0.5:
				problems.append("%s: %s needs scrolling (its content %s in %s lp)" % [where, sc.name, need, sc.size])
	for c in shown_items(screen):
		if not sight(c).is_equal_approx(c.get_global_rect()):
			problems.append("%s: %s %s is cut by a scroll (%s in sight)" % [where, c.name, c.get_global_rect(), sight(c)])
	return problems


## A leaderboard page as the server sends it: 8 players, the player's own third.
static func _board(me: String) -> LeaderboardPage:
	var entries := []
	for i in 8:
		entries.append({rank = i + 1, player_id = me if i == 2 else "p%d" % i,
			nickname = "玩家名字很长的玩家%d" % i if i % 2 else "Player with a long name %d" % i,
			rating = 1400 - 37 * i, matches = 30 - i, wins = 20 - 2 * i})
	return LeaderboardPage.parse(JSON.stringify({rules = "competition", page = 0, per_page = 50, total = 120, entries = entries}))


func test_online_screens_are_centred_columns_at_every_size_in_both_languages() -> void:
	var problems: Array[String] = []
	var looked := 0
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			for path in SCREENS:
				var vp: SubViewport = preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)
				add_child(vp)
				var screen: Control = load(path).instantiate()
				vp.add_child(screen)
				await frames(2)
				if path.ends_with("leaderboard.tscn"):
					screen._on_board(_board(String(Online.client.get_player_id())))
				await frames(4)  # the Readability floors are applied deferred, then the layout settles
				problems.append_array(layout_problems(screen, "%s %s %dx%d" % [path.get_file(), locale, px.x, px.y]))
				if path.ends_with("online_menu.tscn"):
					# The home's one large action is wholly in sight, never below the fold.
					var quick := screen.find_child("Quick", true, false) as Control
					if not sight(quick).is_equal_approx(quick.get_global_rect()):
						problems.append("online_menu.tscn %s %dx%d: Quick match %s is not wholly in sight (%s shown)" % [
							locale, px.x, px.y, quick.get_global_rect(), sight(quick)])
				looked += 1
				vp.queue_free()
				await frames(1)
	for i in LOCALES.size() * SIZES.size():  # the leaderboard's own request, with no server
		expect_logged("fetch_leaderboard: rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	expect_eq(looked, LOCALES.size() * SIZES.size() * SCREENS.size(), "screens looked at")
	expect_eq(problems, [] as Array[String], "the online screens are centred columns with nothing overlapping or cut")


## Account and Settings on a phone's landscape (issue 54): the whole screen at once, as a shipped
## app lays them out (they scrolled at 2340×1080).
func test_account_and_settings_fit_the_screen_without_scrolling() -> void:
	var problems: Array[String] = []
	var looked := 0
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			for path in ["res://online/account.tscn", "res://settings/settings_screen.tscn"]:
				var vp: SubViewport = preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)
				add_child(vp)
				var screen: Control = load(path).instantiate()
				vp.add_child(screen)
				await frames(6)  # the Readability floors are applied deferred, then the layout settles
				problems.append_array(fit_problems(screen, "%s %s %dx%d" % [path.get_file(), locale, px.x, px.y]))
				if path.ends_with("account.tscn"):
					# The fullest it gets: a status line and a transfer code shown.
					screen.call(&"_say", tr("ACCOUNT_ERR_WRONG_LOGIN"))
					for n: String in ["TransferCode", "TransferExpiry"]:
						(screen.get_node("%" + n) as Label).visible = true
					(screen.get_node(^"%TransferCode") as Label).text = "K7P2Q-X4M9R"
					(screen.get_node(^"%TransferExpiry") as Label).text = tr("ACCOUNT_CODE_EXPIRY_FMT").format({minutes = 10})
					await frames(3)
					problems.append_array(fit_problems(screen, "account.tscn %s %dx%d with a code and a status line" % [locale, px.x, px.y]))
				looked += 1
				vp.queue_free()
				await frames(1)
	expect_eq(looked, LOCALES.size() * SIZES.size() * 2, "screens looked at")
	expect_eq(problems, [] as Array[String], "Account and Settings fit the screen with nothing to scroll")


## The middle column holds one form at a time: a guest picks claiming its account or logging in to
## another (what keeps Account within a phone's screen).
func test_account_shows_claiming_or_logging_in_one_at_a_time() -> void:
	var screen: Control = load("res://online/account.tscn").instantiate()
	add_child(screen)
	await frames(2)
	var claim := screen.find_child("ClaimPanel", true, false) as Control
	var login := screen.find_child("LoginPanel", true, false) as Control
	expect(claim.is_visible_in_tree() and not login.is_visible_in_tree(), "a guest sees the claim form first")
	(screen.find_child("ChooseLogin", true, false) as Button).pressed.emit()
	expect(login.is_visible_in_tree() and not claim.is_visible_in_tree(), "Log in shows the login form alone")
	expect((screen.find_child("ChooseLogin", true, false) as Button).button_pressed, "its switch shows the choice")
	(screen.find_child("ChooseClaim", true, false) as Button).pressed.emit()
	expect(claim.is_visible_in_tree() and not login.is_visible_in_tree(), "Claim shows the claim form again")
	screen.queue_free()
	await frames(1)


## A hint shortened to fit its field keeps the whole rule at hand: the field's tooltip says it, in
## both languages (the login name's rule is also what the server's refusal of a bad name says).
func test_a_short_hint_keeps_its_whole_rule_in_the_tooltip() -> void:
	var fields := {"res://online/account.tscn": ["ClaimName"],
		"res://settings/settings_screen.tscn": ["online_server", "online_ca_file"]}
	var looked := 0
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		for path: String in fields:
			var screen: Control = load(path).instantiate()
			add_child(screen)
			await frames(2)
			for n: String in fields[path]:
				var field := screen.find_child(n, true, false) as LineEdit
				var hint := field.tr(field.placeholder_text)
				var rule := field.tr(field.tooltip_text)
				expect(field.tooltip_text != "" and rule != field.tooltip_text, "%s %s: its tooltip is a translated rule ('%s')" % [locale, n, rule])
				expect(rule.length() > hint.length(), "%s %s: the tooltip '%s' says more than the hint '%s'" % [locale, n, rule, hint])
				looked += 1
			screen.queue_free()
			await frames(1)
	expect_eq(looked, 6, "fields looked at")
