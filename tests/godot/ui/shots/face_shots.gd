extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the screens with a face and the full-face cards (issue 39, items 3 and 5), over
## the app's felt as in the game, for the eye: the main menu, the Online menu, the replay list
## (empty, and with three saved matches), Statistics with no data, the leaderboard (empty, and
## with players), Credits, and the court cards and jokers (large, and overlapped as in a packed
## hand, a wild among them). Run under Xvfb:
##   xvfb-run -a -s "-screen 0 1280x720x24" tools/godot --path godot-project --resolution 1280x720 \
##       --audio-driver Dummy res://tests_godot/ui/shots/face_shots.tscn -- --out DIR --locale en
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["menu", "online", "replays_empty", "replays", "stats_empty", "leaderboard_empty",
	"leaderboard", "credits", "cards"]


func _ready() -> void:
	tag = "face_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	var felt: Control = preload("res://table/felt.gd").new()
	add_child(felt)
	await _screen("menu", "res://menu/main_menu.tscn", Callable())
	await _screen("online", "res://online/online_menu.tscn", Callable())
	await _screen("replays_empty", "res://replay/replay_list.tscn", func(s: Control) -> void:
		for c in s.get_node("%List").get_children():
			c.free()
		s.get_node("%Empty").visible = true)
	await _screen("replays", "res://replay/replay_list.tscn", func(s: Control) -> void:
		var list := s.get_node("%List")
		for c in list.get_children():
			c.free()
		s.get_node("%Empty").visible = false
		(s.get_node("%Scroll") as Control).visible = true
		if not s.has_method("_row"):
			return  # an older list: its own rows only
		var me := RecordLibrary.LOCAL_PLAYER
		var rows := [
			["match_2026-12-05_17-30-11_1", {mode = "match", players = [me, "AI L2 (seat 1)", "AI L2 (seat 2)", "AI L2 (seat 3)"],
				deals = 9, outcome = {result = "decisive", team = 0}, team_levels = [14, 9]}],
			["match_2026-12-04_21-02-40_2", {mode = "training", players = [me, "AI L1 (seat 1)", "AI L3 (seat 2)", "AI L1 (seat 3)"],
				deals = 6, outcome = {result = "decisive", team = 1}, team_levels = [8, 14]}],
			["match_2026-12-03_08-15-05_3", {mode = "match", players = [me, "AI L2 (seat 1)", "AI L2 (seat 2)", "AI L2 (seat 3)"],
				deals = 2, team_levels = [4, 3]}],
		]
		for r: Array in rows:
			list.add_child(s._row(r[0], r[1])))
	await _screen("stats_empty", "res://stats/stats_screen.tscn", func(s: Control) -> void: s.show_stats(null))
	await _screen("leaderboard_empty", "res://online/leaderboard.tscn", func(s: Control) -> void:
		s._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 0, entries = []}))))
	await _screen("leaderboard", "res://online/leaderboard.tscn", func(s: Control) -> void:
		var entries := []
		var names := ["梅兰竹菊", "Ann", "老王", "Bob the Builder", "小李飞刀", "Chen", "Dora", "掼蛋高手"]
		for i in names.size():
			entries.append({rank = i + 1, player_id = "p%d" % i, nickname = names[i], rating = 1580 - i * 37,
				matches = 40 - i * 3, wins = 24 - i * 2})
		s._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 8, entries = entries}))))
	await _screen("credits", "res://credits/credits_screen.tscn", Callable())
	await _cards()
	get_tree().quit(0 if _all_saved(SHOTS) else 1)


func _screen(shot: String, path: String, prepare: Callable) -> void:
	var screen: Control = load(path).instantiate()
	add_child(screen)
	await _frames(3)
	if prepare.is_valid():
		prepare.call(screen)
	await _frames(15)
	await _shot(shot)
	screen.queue_free()
	await _frames(2)


## The twelve court cards and the two jokers large, then a packed hand strip (35 % of each card
## showing, the hand's tightest) with a wild heart king at level K.
func _cards() -> void:
	var root := Control.new()
	root.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	add_child(root)
	var view := get_viewport().get_visible_rect().size
	var ids: Array[int] = []
	for suit in 4:
		for rank in [11, 12, 13]:
			ids.append(suit * 13 + rank - 2)
	ids.append_array([52, 53])
	var w := minf(view.x / 7.6, view.y / 2.0 / 1.4 / 1.15)
	for i in ids.size():
		var c: CardView = load("res://hand/card_view.tscn").instantiate()
		c.card_id = ids[i]
		c.size = Vector2(w, w * 1.4)
		c.position = Vector2(8 + (i % 7) * (w * 1.08), 8 + floorf(i / 7.0) * (w * 1.4 * 1.06))
		root.add_child(c)
	var hw := w * 0.85
	var hand := [51, 50, 49, 38, 37, 36, 25, 24, 23, 12, 11, 10, 53, 52, 24]
	for i in hand.size():
		var c: CardView = load("res://hand/card_view.tscn").instantiate()
		c.card_id = hand[i]
		c.level = 13
		c.size = Vector2(hw, hw * 1.4)
		c.position = Vector2(8 + i * hw * 0.35, view.y - hw * 1.4 - 8)
		root.add_child(c)
	await _frames(10)
	await _shot("cards")
	root.queue_free()
