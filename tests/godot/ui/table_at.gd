extends RefCounted
## A table in training mode at the player's first turn, in a viewport stretched as the window shows
## `px` (canvas_items from the 1280×720 base), with the app's felt behind it: the setup the table's
## place tests share (test_table_places.gd, test_table_seats.gd, test_table_play_room.gd). Plays
## are shown still (no flight), so they can be measured at once.

var suite: GdTestSuite
var viewport: SubViewport
## The felt the table asks for its oval (the app's, in a real window).
var felt: Control
var table: Table


## The settings the table tests start from: animations off, the AI debug overlay and the history
## column as asked.
static func reset_settings(ai_debug: bool, history_open: bool) -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"ai_debug", ai_debug)
	Settings.set_value(&"history_open", history_open)


## Opens the table at `px` under `suite` (`rules`: a preset name, "" the default).
static func open(on: GdTestSuite, px: Vector2i, rules := "") -> RefCounted:
	var t: RefCounted = load("res://tests_godot/ui/table_at.gd").new()
	t.suite = on
	t.viewport = preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)
	on.add_child(t.viewport)
	t.felt = preload("res://table/felt.gd").new()
	t.felt.name = &"Felt"
	t.viewport.add_child(t.felt)
	var setup := {mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0, turn_timer = 0, save_record = false}
	if rules != "":
		setup.rules = rules
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with(setup)})
	t.viewport.add_child(table)
	t.table = table
	on.expect(await on.wait_until(func() -> bool: return table.is_idle() and table.duty == &"play"), "my turn")
	table.zone.still = true
	return t


## Opens or closes the history column (as its button does) and lets the table lay out again.
func set_history(open: bool) -> void:
	if table.history_button.button_pressed != open:
		table.history_button.button_pressed = open
		table._toggle_history()
	await suite.frames(3)


## The felt's oval (global).
func oval() -> Rect2:
	return felt.oval


func close() -> void:
	viewport.queue_free()
	await suite.frames(2)
