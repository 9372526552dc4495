extends GdTestSuite
## Nothing the UI connects to the autoloads outlives its node: after a screen (with a running
## match) is freed, EventBus and Settings have exactly the connections they had before, no tween
## keeps running, and no AI worker is left.


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 1.0)


func after_each() -> void:
	Settings.reset_for_tests()


func _connections(obj: Object) -> int:
	var n := 0
	for s in obj.get_signal_list():
		n += obj.get_signal_connection_list(s.name).size()
	return n


func test_screens_leave_no_connections_behind() -> void:
	var bus_before := _connections(EventBus)
	var settings_before := _connections(Settings)
	for path in ["res://ui/app.tscn", "res://menu/main_menu.tscn", "res://settings/settings_screen.tscn",
			"res://replay/replay_list.tscn", "res://table/table.tscn"]:
		var screen: Node = load(path).instantiate()
		if screen.has_method(&"open"):
			screen.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1, seed = 3,
				ai_min_think_ms = 0, turn_timer = 0, save_record = false})})
		add_child(screen)
		await frames(20)  # a match runs, cards fly, tweens start
		if path.ends_with("app.tscn") or path.ends_with("table.tscn"):
			expect(_connections(Settings) > settings_before, "%s listens to Settings" % path)
		screen.queue_free()
		await frames(2)
		expect_eq(_connections(EventBus), bus_before, "%s: EventBus connections gone" % path)
		expect_eq(_connections(Settings), settings_before, "%s: Settings connections gone" % path)
	expect_eq(get_tree().get_processed_tweens().size(), 0, "no tween outlives its node")
	expect_eq(GuandanEngine.live_ai_services(), 0, "no AI worker left")


## Two screen requests in a row (a quick double tap, a script): the newer one wins, and the
## older one's switch ends instead of waiting forever on the tween the newer one killed (such a
## waiting switch kept its screen's scene alive past the game's exit).
func test_a_newer_screen_request_takes_over_a_fading_one() -> void:
	var app: Control = load("res://ui/app.tscn").instantiate()
	add_child(app)
	await frames(2)
	expect_eq(app.current_name, &"menu", "the app opens on the menu")
	app.show_screen(&"settings")  # fades out the menu
	expect_eq(app.switches_running, 1, "the first switch is waiting on its fade")
	await frames(2)
	app.show_screen(&"stats")  # before the settings screen even appears
	expect(await Waits.until(get_tree(), func() -> bool: return app.current_name == &"stats" and app._fade.color.a == 0.0, 3.0),
		"the newer request's screen shows, fully faded in")
	await frames(30)
	expect_eq(app.current_name, &"stats", "the older request never replaces it afterwards")
	var screens := 0
	for child in app.get_children():
		if child != app._fade and child.name != &"Felt" and child is Control:
			screens += 1
	expect_eq(screens, 1, "one screen in the app")
	expect_eq(app._fade.mouse_filter, Control.MOUSE_FILTER_IGNORE, "input is not blocked")
	expect_eq(app.switches_running, 0, "both switches have ended, none left waiting")
	app.queue_free()
	await frames(2)


## A screen freed in the frame it queued a deferred call (a test's end, a quick screen switch)
## says nothing: a deferred lambda of a freed node printed "Trying to call a lambda with an
## invalid instance" (seen once at the end of a surrender test: the result panel queues the
## table's layout), where a deferred method of a freed node is dropped.
func test_a_screen_freed_with_deferred_work_queued_says_nothing() -> void:
	for path in ["res://menu/main_menu.tscn", "res://credits/credits_screen.tscn", "res://table/table.tscn"]:
		var screen: Node = load(path).instantiate()
		if screen is Table:
			(screen as Table).open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 3,
				ai_min_think_ms = 0, turn_timer = 0, save_record = false})})
			add_child(screen)
			await frames(3)
			(screen as Table)._layout_later()
		else:
			add_child(screen)  # the menus queue their focus in _ready
		screen.free()
		# Plain Controls take the freed memory back (as the next screen's nodes would): a
		# deferred lambda left pointing there found a node with no script.
		var fillers: Array[Control] = []
		for i in 200:
			fillers.append(Control.new())
		await frames(2)
		for f in fillers:
			f.free()
		_collect_log()
		expect(_logged.is_empty(), "%s freed with deferred work queued: nothing logged (%s)" % [path, _logged])
		_logged.clear()
