extends EngineTestSuite
## The main menu's texts written by its script and the entries it offers by state (issue 38):
## switching the language while the menu is open rewrites "Your unfinished Training is saved.",
## the version line and the online room's hint (item 9); a seat held in an online room (the game
## closed mid-match: the room remembered for the server and nickname in the settings) is offered
## first, as "Return to your online match", and takes the player to the Online menu, which joins
## that room (item 7).

const RECORD := "test_menu_states_unfinished"
const SERVER := "127.0.0.1:1"  # nothing listens there

var _accounts_before := ""


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	RecordLibrary.forget_continue()
	_accounts_before = Online.accounts_path
	Online.accounts_path = "user://test_menu_states_accounts.cfg"
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))


func after_each() -> void:
	RecordLibrary.forget_continue()
	if RECORD in ReplayRecorder.list_records():
		ReplayRecorder.delete_record(RECORD)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(Online.accounts_path))
	Online.accounts_path = _accounts_before
	OnlineMenu.join_on_open = false
	Settings.reset_for_tests()


## An unfinished training under Continue: a record of a few AI moves and the entry pointing at it.
func _save_continue() -> void:
	var engine := make_engine()
	engine.start_match(load(COMPETITION), [1, 1, 1, 1], 7)
	expect(await wait_until(func() -> bool: return engine.get_action_count() >= 3, 30.0), "the AI seats play")
	var recorder := ReplayRecorder.new()
	expect_eq(recorder.record(engine), GuandanEngine.OK)
	expect_eq(recorder.save(RECORD), GuandanEngine.OK)
	expect(RecordLibrary.remember_continue(MatchConfig.with({mode = &"training"}), RECORD), "Continue entry written")


## A seat remembered in room K7QX2M on SERVER for the nickname Ann.
func _remember_room() -> void:
	Settings.set_value(&"online_server", SERVER)
	Settings.set_value(&"online_nickname", "Ann")
	var f := ConfigFile.new()
	f.set_value(SERVER, "nickname", "Ann")
	f.set_value(SERVER, "player_id", "p-ann")
	f.set_value(SERVER, "token", "t")
	f.set_value(SERVER, "room", "K7QX2M")
	expect_eq(f.save(Online.accounts_path), OK)


func test_switching_the_language_rewrites_the_menus_own_texts() -> void:
	await _save_continue()
	_remember_room()
	Settings.set_value(&"locale", "en")
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(2)
	var info := menu.get_node("%ContinueInfo") as Label
	var version := menu.get_node("%Version") as Label
	var online := menu.get_node("%ReturnOnline") as Button
	expect(info.visible, "the unfinished training is offered")
	expect_eq(info.text, "Your unfinished Training is saved.")
	expect(version.text.begins_with("Engine "), "English version line: %s" % version.text)
	expect_eq(online.tooltip_text, "Room K7QX2M: your seat is kept for you.")
	Settings.set_value(&"locale", "zh_CN")
	await frames(2)
	expect_eq(info.text, "已保存未完成的训练模式。", "the Continue line follows the language")
	expect_eq((menu.get_node("%Continue") as Button).tooltip_text, "已保存未完成的训练模式。")
	expect(version.text.begins_with("引擎 "), "the version line follows the language: %s" % version.text)
	expect_eq(online.tooltip_text, "房间 K7QX2M：你的座位仍为你保留。")
	Settings.set_value(&"locale", "en")
	await frames(2)
	expect_eq(info.text, "Your unfinished Training is saved.", "and back")
	menu.queue_free()
	await frames(1)


func test_a_held_online_seat_is_offered_first_and_joins_its_room() -> void:
	_remember_room()
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(3)
	var online := menu.get_node("%ReturnOnline") as Button
	expect(online.visible, "Return to your online match is offered")
	var shown: Array[Node] = online.get_parent().get_children().filter(func(c: Node) -> bool: return (c as Control).visible)
	expect_eq(shown[0], online, "first of the menu's entries")
	expect(online.has_focus(), "and focused")
	var asked: Array[StringName] = []
	var on_screen := func(s: StringName) -> void: asked.append(s)
	EventBus.screen_requested.connect(on_screen)
	online.pressed.emit()
	EventBus.screen_requested.disconnect(on_screen)
	expect_eq(asked, [&"online"] as Array[StringName], "it opens the Online menu")
	expect(OnlineMenu.join_on_open, "which is to join the room at once")
	menu.queue_free()
	# The Online menu fills in the room and joins it: here no server answers, and it says so.
	var om: Control = load("res://online/online_menu.tscn").instantiate()
	add_child(om)
	await frames(2)
	expect(not OnlineMenu.join_on_open, "joined once")
	expect_eq((om.get_node("%Code") as LineEdit).text, "K7QX2M")
	expect(await wait_until(func() -> bool: return not om._busy, 20.0), "the join attempt ends")
	expect_ne((om.get_node("%Status") as Label).text, "", "and the menu says why it failed")
	om.queue_free()
	await frames(1)


func test_no_held_seat_no_offer() -> void:
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(2)
	expect(not (menu.get_node("%ReturnOnline") as Button).visible, "nothing to return to")
	menu.queue_free()
	await frames(1)


## The seats' level lists offer Expert (level 4, the desktop level) off phones and the web; it is
## kept in the settings and sent in the match's config, and starts the expert profile.
func test_the_expert_level_is_offered_and_sent() -> void:
	Settings.set_value(&"locale", "en")
	Settings.set_value(&"ai_levels", [4, 2, 3])
	expect_eq(Settings.get_value(&"ai_levels"), [4, 2, 3])
	Settings.set_value(&"ai_levels", [5, 2, 3])
	expect_logged("bad value")
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	add_child(menu)
	await frames(2)
	var first := menu.get_node("%Level1") as OptionButton
	expect(menu.offers_expert(), "a desktop build")
	expect_eq(first.item_count, 4)
	expect_eq(tr(first.get_item_text(3)), "Expert")
	expect_eq(first.selected, 3, "the saved level 4 is selected")
	expect_eq(Array(menu.match_config(&"match").ai_levels), [4, 2, 3])
	(menu.get_node("%Level2") as OptionButton).select(3)
	(menu.get_node("%Level2") as OptionButton).item_selected.emit(3)
	expect_eq(Settings.get_value(&"ai_levels"), [4, 4, 3], "chosen and saved")
	var profile := MatchController._profile(4, false)
	expect_eq([profile.level, profile.threads], [4, 2])
	menu.queue_free()
	await frames(1)
