extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the table states issue 13 asks to look at, in a real window (Xvfb):
## the centre after a return, a West straight, a banner over a full table, the clock's last
## seconds, the replay after seeking, the rules page (at the top and scrolled) and the guided
## first deal.
##   tools/godot --path godot-project --resolution 1280x720 --audio-driver Dummy \
##       res://tests_godot/ui/shots/table_shots.tscn -- --out DIR --locale en
## (tools/test-ui runs it for both languages at 1280x720, 1024x768 and 2340x1080.)
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["after_return", "west_straight", "banner", "clock", "replay_seek", "rules",
	"rules_scrolled", "guided"]

var _record := ""


func _ready() -> void:
	tag = "table_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"history_open", true)
	var felt := preload("res://table/felt.gd").new()  # as the app draws it under every screen
	felt.name = "Felt"
	add_child(felt)
	var ok := await _run()
	if _record != "":
		RecordLibrary.delete_record(_record)
	get_tree().quit(0 if ok and _all_saved(SHOTS) else 1)


func _run() -> bool:
	# 1. A training match to the return of deal 2 (seed 1: the player receives a tribute).
	var table := await _table(MatchConfig.with({mode = &"training", rules = "competition", ai_levels = [1, 1, 1], seed = 1,
		ai_min_think_ms = 0, turn_timer = 0, save_record = false}))
	var returned := false
	var deadline := Time.get_ticks_msec() + 120000
	while Time.get_ticks_msec() < deadline:
		await _frames(1)
		if table.modal.is_open():
			table.modal.press(&"next")
			continue
		if not table.is_idle():
			continue
		if table.duty == &"return" or table.duty == &"tribute":
			var options: PackedInt32Array = table.controller.return_options() if table.duty == &"return" else table.controller.tribute_options()
			table.hand.set_selected(PackedInt32Array([options[0]]))
			table._on_play_pressed()
			returned = true
			continue
		if table.duty == &"play":
			if returned:
				break
			_play_first_hint(table)
	if not returned:
		return _fail("no return in deal 2")
	await _frames(4)
	await _shot("after_return")
	# 2. West shows a straight (cards from outside the player's hand), East passes, North plays.
	var zone: PlayZone = table.zone
	var straight := _free_straight(table)
	zone.show_play(3, straight, zone.global_position, [], table.level)
	zone.show_pass(1)
	await _frames(4)
	await _shot("west_straight")
	# 3. A banner with plays all round.
	table.banner.announce(Wording.finished(3, 1, table.local_seat), 3.0)
	await _frames(4)
	await _shot("banner")
	table.queue_free()
	await _frames(2)
	# 4. The clock's last seconds in a match.
	table = await _table(MatchConfig.with({mode = &"match", rules = "competition", ai_levels = [1, 1, 1], seed = 6,
		ai_min_think_ms = 0, turn_time_limit_s = 8, save_record = true}))
	if not await _until(func() -> bool: return table.is_idle() and table.duty == &"play" and table.clock_warning(), 30.0):
		return _fail("no clock warning")
	await _until(func() -> bool: return table.clock_label.text.to_int() <= 3, 4.0)
	await _shot("clock")
	# Let the match run a while for the replay, then save it.
	table.controller.set_auto_play(true)
	await _until(func() -> bool: return table.controller.action_count() > 90, 30.0)
	_record = table.controller.record.save()
	table.queue_free()
	await _frames(2)
	# 5. The replay after seeking.
	var player: Control = load("res://replay/replay_player.tscn").instantiate()
	player.open({record = _record})
	add_child(player)
	await _frames(3)
	player.seek(int(player.controller.record_length() * 0.6))
	await _frames(4)
	await _shot("replay_seek")
	player.queue_free()
	await _frames(2)
	# 6. The rules page.
	var rules: Control = load("res://help/rules_page.tscn").instantiate()
	add_child(rules)
	await _frames(4)
	await _shot("rules")
	# Scrolled half-way: nothing of the page may show behind the title row (issue 24).
	var scroll: ScrollContainer = rules.find_children("*", "ScrollContainer", true, false)[0]
	scroll.scroll_vertical = int(scroll.get_v_scroll_bar().max_value * 0.4)
	await _frames(3)
	await _shot("rules_scrolled")
	rules.queue_free()
	await _frames(2)
	# 7. The guided first deal at the player's first lead (the coach speaks in the sidebar).
	var guided := GuidedDeal.config()
	guided.ai_min_think_ms = 0
	table = await _table(guided)
	if not await _until(func() -> bool: return table.is_idle() and table.duty == &"play", 20.0):
		return _fail("guided deal: no turn")
	await _frames(4)
	await _shot("guided")
	table.queue_free()
	await _frames(2)
	return true


func _table(config: MatchConfig) -> Table:
	var t: Table = load("res://table/table.tscn").instantiate()
	t.open({config = config})
	add_child(t)
	await _frames(3)
	return t


## Five cards in a row (5–9), none from the player's hand or the table.
func _free_straight(table: Table) -> PackedInt32Array:
	var used := {}
	for id in table.hand.cards():
		used[id] = true
	for seat in 4:
		for id in table.zone.shown(seat):
			used[id] = true
	var out := PackedInt32Array()
	for rank in range(5, 10):
		for id in 108:
			if not used.has(id) and not Cards.is_joker(id) and Cards.rank(id) == rank and not Cards.is_wild(id, table.level):
				out.append(id)
				break
	return out
