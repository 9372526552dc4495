extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the table's hierarchy (issue 27) in a real window: the player's move (level
## plaque, gold Play / slate Pass), the others' turn (no buttons, the hand sunk, never grey), a
## word-art straight, a six-card bomb mid-effect and four jokers' gold burst (both big moments: the
## full-table effect), four jokers' name across the table and 双下's.
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/moment_shots.tscn -- --out DIR --locale en
## (tools/test-ui effect-shots runs it for both languages at 1280x720 and 2340x1080.)
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["my_move", "waiting", "straight", "bomb", "four_jokers", "four_jokers_name", "double_down"]


func _ready() -> void:
	tag = "moment_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"history_open", true)
	var felt := preload("res://table/felt.gd").new()
	felt.name = "Felt"
	add_child(felt)
	var ok := await _run()
	get_tree().quit(0 if ok and _all_saved(SHOTS) else 1)


func _run() -> bool:
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", rules = "competition", ai_levels = [1, 1, 1], seed = 6,
		ai_min_think_ms = 1500, turn_timer = 0, save_record = false})})
	add_child(table)
	if not await _until(func() -> bool: return table.is_idle() and table.duty == &"play", 30.0):
		return _fail("no turn")
	table.team_levels = PackedInt32Array([5, 3])
	table.level = 5
	table.update_top_bar()
	await _frames(30)
	await _shot("my_move")
	if table.can_pass:
		table._on_pass_pressed()
	else:
		table.hand.set_selected(PackedInt32Array([table.hand.display_order()[0]]))
		table.play_selection(-1)
	if not await _until(func() -> bool: return table.hand.waiting and table.is_idle(), 20.0):
		return _fail("no waiting")
	await _frames(20)
	await _shot("waiting")
	var zone: PlayZone = table.zone
	var straight := PackedInt32Array(_free(table, [5, 6, 7, 8, 9]))
	zone.show_play(3, straight, zone.global_position, [], table.level)
	zone.relayout(table.level)  # landed at once: the word-art stands beside the cards
	table.name_play(3, {type = "Straight", name_key = "play.straight", size = 5, bomb = false, cards = straight})
	await _frames(12)
	await _shot("straight")
	var bomb := PackedInt32Array(_free(table, [11, 11, 11, 11, 11, 11]))
	zone.show_play(1, bomb, zone.global_position, [], table.level)
	zone.relayout(table.level)
	var shake: float = table.name_play(1, {type = "Bomb", name_key = "play.bomb", size = 6, bomb = true, cards = bomb})
	table.events.shake(shake)
	# Slowed down: the software renderer is slower than the effect.
	Engine.time_scale = 0.15
	await _frames(3)
	await _shot("bomb")
	Engine.time_scale = 1.0
	await get_tree().create_timer(1.5).timeout
	var jokers := PackedInt32Array([52, 53, 106, 107])
	zone.show_play(2, jokers, zone.global_position, [], table.level)
	zone.relayout(table.level)
	table.name_play(2, {type = "FourKings", name_key = "play.four_kings", size = 4, bomb = true, cards = jokers})
	Engine.time_scale = 0.15
	await _frames(3)
	await _shot("four_jokers")
	Engine.time_scale = 1.0
	# The big moment's name across the table, a little later in the effect.
	await get_tree().create_timer(0.35).timeout
	await _shot("four_jokers_name")
	await get_tree().create_timer(1.5).timeout
	table.big_moment(tr("DOUBLE_DOWN_BANNER"))
	await get_tree().create_timer(0.4).timeout
	await _shot("double_down")
	return true


## Cards of these ranks from outside the player's hand (one per entry).
func _free(table: Table, ranks: Array) -> Array:
	var used := {}
	for id in table.hand.cards():
		used[id] = true
	for seat in 4:
		for id in table.zone.shown(seat):
			used[id] = true
	var out := []
	for rank: int in ranks:
		for id in 108:
			if not used.has(id) and not Cards.is_joker(id) and Cards.rank(id) == rank:
				used[id] = true
				out.append(id)
				break
	return out
