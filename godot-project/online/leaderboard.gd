extends Control
## Online → Leaderboard: one rule preset's rated players, best first, 50 a page (the server's
## ranking, asked through `GuandanClient.fetch_leaderboard`). The player's own row stands out;
## any row opens that player's profile, My profile the player's own. A failure (server gone, too
## many requests) is said under the list and the page can be asked again.

## The rule presets, in the order of the Rules options in the scene.
const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
const ROW := preload("res://online/leaderboard_row.tscn")
## A row's portrait is this share of the row's height (44 lp in the scene's 56 lp row).
const PORTRAIT_SHARE := 0.8
## The player's own row.
const MINE := Color(0.98, 0.85, 0.45)
## The first three places' rank colours: gold, silver, bronze.
const MEDALS: Array[Color] = [Color(0.98, 0.8, 0.3), Color(0.8, 0.84, 0.88), Color(0.85, 0.55, 0.3)]

## The page shown (from 0) and the server's last answer for it ({} until it comes).
var page := 0
var board: LeaderboardPage = null

@onready var _rules: OptionButton = %Rules
@onready var _rows: VBoxContainer = %Rows
@onready var _status: Label = %Status
@onready var _page: Label = %Page
@onready var _prev: Button = %Prev
@onready var _next: Button = %Next


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"online"))
	%Mine.pressed.connect(open_profile.bind(""))
	_prev.pressed.connect(func() -> void: show_page(page - 1))
	_next.pressed.connect(func() -> void: show_page(page + 1))
	_rules.select(maxi(RULES.find(Online.board_rules), 0))
	_rules.item_selected.connect(func(i: int) -> void:
		Online.board_rules = RULES[i]
		show_page(0))
	# Methods, not lambdas: the client outlives this screen, and a method's connection goes with it.
	Online.client.leaderboard_received.connect(_on_board)
	Online.client.fetch_failed.connect(_on_failed)
	show_page(0)
	%Back.grab_focus.call_deferred()


## Asks for page `p` of the chosen rules (tests call it too).
func show_page(p: int) -> void:
	page = maxi(p, 0)
	board = null
	_status.text = tr("LEADERBOARD_LOADING")
	(%EmptyPicture as Control).visible = false
	(%Scroll as Control).visible = true
	_prev.disabled = true
	_next.disabled = true
	var rc: int = Online.client.fetch_leaderboard(Online.board_rules, page)
	if rc != 0:
		_failed(rc)


## Opens the profile of `player_id` ("" = the player's own).
func open_profile(player_id: String) -> void:
	Online.profile_player = player_id
	EventBus.screen_requested.emit(&"profile")


## A row's portrait, PORTRAIT_SHARE of the row's height.
static func _fit_portrait(row: Control, portrait: SeatAvatar) -> void:
	var side := roundf(row.size.y * PORTRAIT_SHARE)
	if side > 0.0 and not is_equal_approx(portrait.fixed_size.x, side):
		portrait.fixed_size = Vector2(side, side)


func _on_board(b: LeaderboardPage) -> void:
	if b.rules != Online.board_rules or b.page != page:
		return  # an answer to a page no longer shown
	board = b
	for c in _rows.get_children():
		_rows.remove_child(c)
		c.queue_free()
	var me: String = Online.client.get_player_id()
	for e: LeaderboardEntry in b.entries:
		var row: Button = ROW.instantiate()
		row.name = "Row%d" % int(e.rank)
		var mine := String(e.player_id) == me
		var name_label: Label = row.get_node(^"%Nickname")
		name_label.add_theme_font_override(&"font", Online.name_font())
		name_label.text = tr("LEADERBOARD_YOU_FMT").format({name = e.nickname}) if mine else String(e.nickname)
		var rank_label := row.get_node(^"%Rank") as Label
		rank_label.text = str(int(e.rank))
		if int(e.rank) >= 1 and int(e.rank) <= MEDALS.size():
			rank_label.add_theme_color_override(&"font_color", MEDALS[int(e.rank) - 1])
			rank_label.add_theme_font_size_override(&"font_size", 28)
		var portrait := row.get_node(^"%Portrait") as SeatAvatar
		portrait.face_key = hash(String(e.player_id))
		# The portrait grows with its row (a phone raises the rows to its tap floor).
		row.resized.connect(_fit_portrait.bind(row, portrait))
		(row.get_node(^"%Rating") as Label).text = str(int(e.rating))
		(row.get_node(^"%Matches") as Label).text = str(int(e.matches))
		var played := int(e.matches)
		(row.get_node(^"%WinRate") as Label).text = "%d%%" % roundi(100.0 * int(e.wins) / played) if played > 0 else "–"
		if mine:
			for l: Label in [name_label, row.get_node(^"%Rank")]:
				l.add_theme_color_override(&"font_color", MINE)
		row.pressed.connect(open_profile.bind(String(e.player_id)))
		_rows.add_child(row)
	var pages := pages_total()
	_page.text = tr("LEADERBOARD_PAGE_FMT").format({page = page + 1, pages = pages})
	_prev.disabled = page <= 0
	_next.disabled = page + 1 >= pages
	_status.text = empty_text(b.min_matches) if b.entries.is_empty() and page == 0 else ""
	(%EmptyPicture as Control).visible = b.entries.is_empty() and page == 0
	(%Scroll as Control).visible = not (%EmptyPicture as Control).visible


## What an empty board says: how many ranked matches put a player on it (issue 52: after two
## rated wins "no one has played" read as a fault; the server lists a player after 5).
static func empty_text(min_matches: int) -> String:
	if min_matches <= 0:
		return TranslationServer.translate("LEADERBOARD_EMPTY")
	return TranslationServer.translate("LEADERBOARD_EMPTY_MIN_FMT").format({n = min_matches})


## Pages of the last answer (at least 1).
func pages_total() -> int:
	if board == null:
		return 1
	var per := maxi(board.per_page, 1)
	return maxi(ceili(float(board.total) / per), 1)


func _on_failed(what: String, code: int, _message: String) -> void:
	if what == "leaderboard":
		_failed(code)


func _failed(code: int) -> void:
	_status.text = Online.error_text(code)
	_prev.disabled = page <= 0
	_next.disabled = false
