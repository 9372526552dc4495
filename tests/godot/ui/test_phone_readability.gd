extends GdTestSuite
## Readable on a phone (issue 27): the screens players use, shown as a 2340×1080 phone shows them,
## have no text below 12 dp and nothing to tap lower than 48 dp. Every visible Label, Button,
## LineEdit and RichTextLabel with text is checked for its effective font size (its override or
## theme size, times any scale of its ancestors), and every visible button, check box, option
## button, text field and slider for its height, and that it lies on the screen (unless it is in
## a scroll container: a bigger size must not push a button off a screen that cannot scroll).
## The failure lists each violation (screen, node path, size).
##
## dp -> lp: the SubViewport is 2340×1080 pixels and stretches its canvas like the project's
## window does (canvas_items, aspect expand, from the 1280×720 base): 1.5 px per lp, a 1560×720 lp
## view. A 2340×1080 phone has about 400 ppi = 2.5 px per dp, so a dp is 2.5 / 1.5 ≈ 1.67 lp:
## 12 dp = 20 lp, 48 dp = 80 lp. (The game's own floors are in resources/style/phone_profile.tres;
## this test holds the requirement, so lowering them there fails here.)

const Probe := preload("res://tests_godot/ui/layout_probe.gd")
const PHONE_PX := Vector2i(2340, 1080)
const PX_PER_DP := 2.5  # ~400 ppi (Android's dp is 1/160 inch)
const TEXT_FLOOR_DP := 12.0
const TAP_FLOOR_DP := 48.0

## Node path fragments not checked, each with its reason. None is needed today: add one here,
## with the reason, rather than lower a floor.
const EXEMPT := {}
## Text this test does not see, for the record: drawn with draw_string, not shown by a control.
const NOT_CHECKED := {
	"hand/card_view.gd": "the cards' ranks and suits (CardStyle sizes them by the card's width)",
	"hand/hand_view.gd": "the grouping view's labels over the hand (sorted by groups)",
	"stats/stats_chart.gd": "the charts' axis and bar labels",
	"online/online_table.tscn": "needs a server (tools/test-online --shots); its lobby/online table change is in flight",
}

var _text_floor := 0.0  # lp
var _tap_floor := 0.0  # lp
var _violations: Array[String] = []
var _checked := {}  # screen -> controls checked


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	_violations.clear()
	_checked.clear()


func after_each() -> void:
	Settings.reset_for_tests()
	Online.seat = -1


func timeout_for(_method: StringName) -> float:
	return 240.0


## A SubViewport of PHONE_PX pixels that stretches its canvas like the project's root window.
func _phone_viewport() -> SubViewport:
	var base := Vector2(ProjectSettings.get_setting("display/window/size/viewport_width"),
		ProjectSettings.get_setting("display/window/size/viewport_height"))
	expect_eq(ProjectSettings.get_setting("display/window/stretch/mode"), "canvas_items", "stretch mode this test mirrors")
	expect_eq(ProjectSettings.get_setting("display/window/stretch/aspect"), "expand", "stretch aspect this test mirrors")
	var px_per_lp := minf(PHONE_PX.x / base.x, PHONE_PX.y / base.y)
	_text_floor = TEXT_FLOOR_DP * PX_PER_DP / px_per_lp
	_tap_floor = TAP_FLOOR_DP * PX_PER_DP / px_per_lp
	var vp := SubViewport.new()
	vp.size = PHONE_PX
	vp.size_2d_override = Vector2i((Vector2(PHONE_PX) / px_per_lp).round())
	vp.size_2d_override_stretch = true
	vp.disable_3d = true
	add_child(vp)
	return vp


func _text_of(c: Control) -> String:
	if c is Label:
		return (c as Label).text
	if c is RichTextLabel:
		return (c as RichTextLabel).get_parsed_text()
	if c is LineEdit:
		var e := c as LineEdit
		return e.text if e.text != "" else e.placeholder_text
	if c is Button:
		return (c as Button).text
	return ""


func _scrolls(c: Control) -> bool:
	var n := c.get_parent()
	while n != null:
		if n is ScrollContainer:
			return true
		n = n.get_parent()
	return false


func _exempt(path: String) -> bool:
	for fragment: String in EXEMPT:
		if fragment in path:
			return true
	return false


## Checks every shown control under `root` against the floors.
func _check(screen: String, root: Node) -> void:
	var n := 0
	for node in root.find_children("*", "Control", true, false):
		var c := node as Control
		if not Probe.shown(c):
			continue
		var path := String(root.get_path_to(c))
		if _exempt(path):
			continue
		var scale := c.get_global_transform().get_scale().y
		var text := _text_of(c)
		if text.strip_edges() != "":
			n += 1
			var item := &"normal_font_size" if c is RichTextLabel else &"font_size"
			var fs := c.get_theme_font_size(item) * scale
			if fs < _text_floor - 0.01:
				_violations.append("%s: %s %s text %.1f lp < %.0f lp (\"%s\")" % [screen, path, c.get_class(), fs,
					_text_floor, text.left(30)])
		if c is BaseButton or c is LineEdit or c is Slider:
			n += 1
			var r := c.get_global_rect()
			if r.size.y < _tap_floor - 0.5:
				_violations.append("%s: %s %s is %.1f lp high < %.0f lp" % [screen, path, c.get_class(), r.size.y, _tap_floor])
			if not _scrolls(c) and not c.get_viewport_rect().encloses(r.grow(-0.5)):
				_violations.append("%s: %s %s at %s is off the screen %s" % [screen, path, c.get_class(), r,
					c.get_viewport_rect().size])
	_checked[screen] = int(_checked.get(screen, 0)) + n


func _report(min_screens: int) -> void:
	expect(_checked.size() >= min_screens, "screens checked: %s" % [_checked])
	for screen: String in _checked:
		expect(_checked[screen] >= 3, "%s: %d controls checked" % [screen, _checked[screen]])
	if not _violations.is_empty():
		fail("%d readability violations at %s (text floor %.0f lp, tap floor %.0f lp):\n  %s" % [_violations.size(),
			PHONE_PX, _text_floor, _tap_floor, "\n  ".join(_violations)])


func _open_screen(vp: SubViewport, path: String, prepare := Callable()) -> Control:
	var screen: Control = load(path).instantiate()
	vp.add_child(screen)
	await frames(3)
	if prepare.is_valid():
		prepare.call(screen)
		await frames(3)
	return screen


# --- the tests -------------------------------------------------------------------------------------

func test_menus_and_screens_are_readable_on_a_phone() -> void:
	var vp := _phone_viewport()
	for path in ["res://menu/main_menu.tscn", "res://settings/settings_screen.tscn", "res://stats/stats_screen.tscn",
			"res://replay/replay_list.tscn", "res://help/rules_page.tscn", "res://credits/credits_screen.tscn"]:
		var screen := await _open_screen(vp, path)
		_check(path.get_file(), screen)
		screen.queue_free()
		await frames(1)
	_report(6)


func test_online_screens_are_readable_on_a_phone() -> void:
	var vp := _phone_viewport()
	var screen := await _open_screen(vp, "res://online/online_menu.tscn")
	_check("online_menu.tscn", screen)
	screen.queue_free()
	screen = await _open_screen(vp, "res://online/quick_search.tscn", func(s: Control) -> void:
		s._on_queue_status("huaian", true, 12_500, 3))
	_check("quick_search.tscn", screen)
	screen.queue_free()
	Online.board_rules = "competition"
	screen = await _open_screen(vp, "res://online/leaderboard.tscn", func(s: Control) -> void:
		s._on_board(LeaderboardPage.parse(JSON.stringify(_board()))))
	# No server here: the screen's own request is refused at once (and said), or, after a test
	# that named a dead server, fails later; either way the page given above is what is checked.
	claim_logged("fetch_leaderboard: rejected with code %d" % GuandanEngine.ERR_BAD_ARGUMENT)
	_check("leaderboard.tscn", screen)
	screen.queue_free()
	Online.seat = 1
	screen = await _open_screen(vp, "res://online/lobby.tscn", func(s: Control) -> void: s._refresh(OnlineRoom.parse(JSON.stringify(_room()))))
	_check("lobby.tscn", screen)
	screen.queue_free()
	# The Account screen of a guest, with a transfer code shown (no server: the answers are given;
	# no account is kept, so the screen asks nothing).
	var kept_path: String = Online.accounts_path
	Online.accounts_path = "user://test_phone_accounts.cfg"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	Online.client.disconnect_from_server()
	screen = await _open_screen(vp, "res://online/account.tscn", func(s: Control) -> void:
		s.account = AccountAnswer.of_account("p1", "Ann", "", 1)
		s.waiting = "transfer_code"
		s._on_done("transfer_code", AccountAnswer.of_transfer_code("K7QX2-MAB3D", 600)))
	_check("account.tscn", screen)
	screen.queue_free()
	Online.accounts_path = kept_path
	await frames(1)
	_report(5)


## The offline table through a deal: the player's lead, a follow over a table play, the pause
## menu, the end-of-deal panel, the tribute of the next deal (the player loses the first: always
## passing, leading the smallest card), and an end-of-match panel.
func test_the_table_is_readable_on_a_phone() -> void:
	Settings.set_value(&"history_open", true)
	var vp := _phone_viewport()
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 2, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false, rules = "competition"})})
	vp.add_child(table)
	await frames(3)
	var seen := {}
	var deadline := Time.get_ticks_msec() + 180000
	while Time.get_ticks_msec() < deadline and not (seen.has("tribute") or seen.has("return")):
		await frames(1)
		if table.modal.is_open():
			if not seen.has("deal end"):
				seen["deal end"] = true
				_check("table: end of deal", table)
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		match table.duty:
			&"tribute", &"return":
				seen[String(table.duty)] = true
				_check("table: " + String(table.duty), table)
			&"play":
				if table.can_pass:
					if not seen.has("follow") and not table.zone.group_rect((table.local_seat + 3) % 4).size == Vector2.ZERO:
						seen["follow"] = true
						_check("table: following a play", table)
					table._on_pass_pressed()
				else:
					if not seen.has("lead"):
						seen["lead"] = true
						_check("table: my lead", table)
						table.pause_menu.open()
						await frames(3)
						_check("table: pause menu", table)
						table.modal.press(&"resume")
						await frames(3)
					table.hand.set_selected(PackedInt32Array([table.hand.display_order()[0]]))
					table.play_selection(-1)
	for s in ["lead", "follow", "deal end"]:
		expect(seen.has(s), "the table reached: %s (saw %s)" % [s, seen.keys()])
	expect(seen.has("tribute") or seen.has("return"), "a tribute or return step was reached (%s)" % [seen.keys()])
	# The end-of-match panel as the table fills it (a whole match is too long for a test).
	var body := MatchEndPanel.create()
	body.fill(tr("MATCH_REASON_ACE_WON"), Wording.levels("FINAL_LEVELS_FMT", "FINAL_LEVELS_SPECTATOR_FMT", table.team_levels, false))
	table.modal.open(tr("MATCH_WON"), [body], [[&"replay", "BTN_WATCH_REPLAY"], [&"again", "BTN_PLAY_AGAIN"], [&"menu", "BTN_MENU"]])
	await frames(3)
	_check("table: end of match", table)
	_report(6)


# --- data as the server delivers it ----------------------------------------------------------------

func _room() -> Dictionary:
	var seats: Array = []
	for i in 4:
		seats.append({seat = i, player = "Ann" if i == 0 else ("Bob" if i == 1 else ""), ai = 2 if i == 3 else 0,
			ready = i == 1, connected = true, hosted = false})
	return {code = "K7QX2M", state = "waiting", host_seat = 0, rules = "competition", spectator_delay = 3,
		spectators = 2, locked = false, matches = 0, seats = seats}


func _board() -> Dictionary:
	var entries := []
	for i in 8:
		entries.append({rank = i + 1, player_id = "p%d" % i, nickname = "玩家%d" % i if i % 2 else "Player %d" % i,
			rating = 1400 - 37 * i, matches = 30 - i, wins = 20 - 2 * i})
	return {rules = "competition", page = 0, per_page = 50, total = 120, entries = entries}
