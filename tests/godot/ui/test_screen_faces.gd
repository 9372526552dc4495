extends GdTestSuite
## Screens with a face (issue 39, item 5): one background per area in the table's palette (menu,
## online, replays/statistics), icons on the main menu's buttons, empty states with a picture and
## a line (replays, leaderboard, statistics), and the leaderboard's rows with portraits.

## Each screen and the area whose background it shows.
const AREAS := {
	"res://menu/main_menu.tscn": "menu",
	"res://settings/settings_screen.tscn": "menu",
	"res://help/rules_page.tscn": "menu",
	"res://credits/credits_screen.tscn": "menu",
	"res://online/online_menu.tscn": "online",
	"res://online/leaderboard.tscn": "online",
	"res://online/profile.tscn": "online",
	"res://online/account.tscn": "online",
	"res://replay/replay_list.tscn": "records",
	"res://stats/stats_screen.tscn": "records",
}


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()
	Online.profile_player = ""


func test_every_area_has_its_own_background_behind_the_content() -> void:
	var motifs := {}
	for path: String in AREAS:
		# Read from the scene file (instancing a screen starts its work: requests, timers).
		var state := (load(path) as PackedScene).get_state()
		expect(state.get_node_count() > 1, path)
		# The backdrop is the root's first child: everything else is drawn over it.
		expect_eq(String(state.get_node_path(1)), "./AreaBackdrop", "%s: the first child is its backdrop" % path)
		var props := {}
		for k in state.get_node_property_count(1):
			props[state.get_node_property_name(1, k)] = state.get_node_property_value(1, k)
		var script: Script = props.get(&"script")
		expect(script != null and script.resource_path == "res://ui/area_backdrop.gd", "%s: an AreaBackdrop" % path)
		expect_eq(props.get(&"area"), AREAS[path], "%s: its area" % path)
		expect_eq(props.get(&"mouse_filter"), Control.MOUSE_FILTER_IGNORE, "%s: the backdrop takes no clicks" % path)
		var b := AreaBackdrop.new()
		b.area = AREAS[path]
		motifs[b.area] = b.motif()
		b.free()
	expect_eq(motifs.size(), 3, "three areas")
	var distinct := {}
	for m: StringName in motifs.values():
		distinct[m] = true
	expect_eq(distinct.size(), 3, "each area draws its own picture: %s" % [motifs])


func test_a_backdrop_fills_its_screen_and_draws_in_the_tables_colours() -> void:
	var vp := SubViewport.new()
	vp.size = Vector2i(1280, 720)
	vp.disable_3d = true
	add_child(vp)
	for area in ["menu", "online", "records"]:
		var b := AreaBackdrop.new()
		b.area = area
		vp.add_child(b)
		await frames(1)
		expect_eq(b.size, Vector2(1280, 720), "%s: full screen" % area)
		b.queue_free()
		await frames(1)
	vp.queue_free()


func test_every_main_menu_button_has_an_icon() -> void:
	var menu: Control = load("res://menu/main_menu.tscn").instantiate()
	var icons := {}
	var buttons := 0
	for n in menu.find_children("*", "Button", true, false):
		if n is OptionButton:
			continue  # the settings lists, not menu entries
		var b := n as Button
		buttons += 1
		expect(b.icon != null, "%s has an icon" % b.name)
		if b.icon != null:
			expect(b.icon.resource_path.begins_with("res://ui/icons/"), "%s: from ui/icons (%s)" % [b.name, b.icon.resource_path])
			icons[b.icon.resource_path] = true
	expect(buttons >= 12, "the menu's buttons (%d)" % buttons)
	expect_eq(icons.size(), buttons, "each button its own icon")
	menu.free()


func test_empty_replays_and_statistics_show_a_picture_with_their_line() -> void:
	var list: Control = load("res://replay/replay_list.tscn").instantiate()
	add_child(list)
	await frames(1)
	var pic := list.get_node("%EmptyPicture") as EmptyPicture
	var line := list.get_node("%Empty") as Label
	expect_eq(pic.kind, "replays")
	# The picture follows the line the list already shows when it has no record.
	for empty in [true, false, true]:
		line.visible = empty
		expect_eq(pic.visible, empty, "picture shown with the line: %s" % empty)
	list.queue_free()
	var stats: Control = load("res://stats/stats_screen.tscn").instantiate()
	add_child(stats)
	await frames(2)
	stats.show_stats(null)
	await frames(1)
	var spic := stats.get_node("%EmptyPicture") as EmptyPicture
	expect(spic.is_visible_in_tree(), "no statistics: the picture")
	expect((stats.get_node("%Empty") as Label).is_visible_in_tree(), "and the line")
	expect_eq(spic.kind, "stats")
	stats.queue_free()
	await frames(1)


func test_the_leaderboard_shows_portraits_and_an_empty_picture() -> void:
	var board: Control = load("res://online/leaderboard.tscn").instantiate()
	add_child(board)
	await frames(1)
	# No server here: the screen's own request is refused at once.
	claim_logged("fetch_leaderboard: rejected")
	var pic := board.get_node("%EmptyPicture") as Control
	board._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 0, entries = []})))
	expect(pic.visible, "nobody ranked: the picture")
	expect_eq((board.get_node("%Status") as Label).text, tr("LEADERBOARD_EMPTY"), "with its line")
	# Issue 52: the server says how many ranked matches put a player on the board; the line says it.
	board._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 0, entries = [], min_matches = 5})))
	var said := (board.get_node("%Status") as Label).text
	expect("5" in said and said != tr("LEADERBOARD_EMPTY"), "the empty board says the minimum: %s" % said)
	var entries := []
	for i in 4:
		entries.append({rank = i + 1, player_id = "p%d" % i, nickname = "Player %d" % i, rating = 1200 - i * 10,
			matches = 10, wins = 5})
	board._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 4, entries = entries})))
	expect(not pic.visible, "players ranked: no picture")
	var faces := {}
	for i in 4:
		var row := board.find_child("Row%d" % (i + 1), true, false)
		var portrait := row.find_child("Portrait", true, false) as SeatAvatar if row != null else null
		expect(portrait != null, "row %d has a portrait" % (i + 1))
		if portrait != null:
			faces[portrait.face_key] = true
	expect_eq(faces.size(), 4, "each player their own face")
	board.queue_free()
	await frames(1)


## The rows' portraits grow with the rows (at 2340×1080 a phone's tap floor makes the rows taller
## and the portraits looked small): at every size each portrait is most of its row's height.
func test_the_leaderboards_portraits_scale_with_their_rows() -> void:
	for px: Vector2i in [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]:
		var vp := preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)
		add_child(vp)
		var board: Control = load("res://online/leaderboard.tscn").instantiate()
		vp.add_child(board)
		await frames(1)
		claim_logged("fetch_leaderboard: rejected")
		var entries := []
		for i in 3:
			entries.append({rank = i + 1, player_id = "p%d" % i, nickname = "Player %d" % i, rating = 1200 - i * 10,
				matches = 10, wins = 5})
		board._on_board(LeaderboardPage.parse(JSON.stringify({rules = Online.board_rules, page = 0, per_page = 50, total = 3, entries = entries})))
		await frames(4)
		for i in 3:
			var row := board.find_child("Row%d" % (i + 1), true, false) as Control
			var portrait := row.find_child("Portrait", true, false) as Control
			var rr := row.get_global_rect()
			var pr := portrait.get_global_rect()
			var where := "%dx%d row %d" % [px.x, px.y, i + 1]
			expect(pr.size.y >= rr.size.y * 0.75 and pr.size.y <= rr.size.y + 0.5,
				"%s: the portrait (%s) is most of the row's height (%s)" % [where, pr.size.y, rr.size.y])
			expect(is_equal_approx(pr.size.x, pr.size.y), "%s: round, not squeezed (%s)" % [where, pr.size])
			expect(absf(pr.get_center().y - rr.get_center().y) <= 1.0, "%s: centred in its row" % where)
		board.queue_free()
		vp.queue_free()
		await frames(1)
