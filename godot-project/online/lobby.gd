extends Control
## The room before a match, drawn as the table it will be: the four places around the felt's oval
## (the player's at the bottom, the others where the table will seat them), each a portrait with
## its name, where it sits, its ready mark on the portrait and, while free, "Sit" and the host's
## "AI ▾" choice; the room code as a card in the middle with Copy; ready / unready; the host fills
## empty seats with the server's AI (per seat), chooses whether spectators see one team's hands
## (ours, the other team's, or none; named from the host's seat, sent as the server's team),
## starts when everyone is ready, or disbands the room.
## The layout is lobby.tscn's and its table's (room_table.tscn: the oval and the four places,
## lobby_place.tscn): this script says which seat sits on which side and fills the places.
## When the match starts the online table opens; if the room closes or the connection is gone
## for good, the Online menu says why.

const FILL_KEYS: Array[String] = ["ONLINE_SEAT_OPEN", "AI_EASY", "AI_NORMAL", "AI_HARD"]

@onready var _code: Label = %RoomCode
@onready var _ready_button: Button = %Ready
@onready var _start: Button = %Start
@onready var _disband: Button = %Disband
@onready var _status: Label = %Status
@onready var _info: Label = %Info
## The host's choice of what spectators see: item 0 no hands, 1 our team's, 2 the other team's.
@onready var _spectator_hands: OptionButton = %SpectatorHands
var _rows: Array[Dictionary] = []
var _leaving := false
## The four places around the felt (room_table.tscn).
@onready var _table: RoomTable = %Table


func _ready() -> void:
	%Leave.pressed.connect(_leave)
	%Copy.pressed.connect(func() -> void:
		DisplayServer.clipboard_set(_code.text)
		_status.text = tr("ONLINE_COPIED"))
	for seat in 4:
		_rows.append(_place(seat))
	_ready_button.pressed.connect(_toggle_ready)
	_start.pressed.connect(_on_start)
	_disband.pressed.connect(_on_disband)
	_spectator_hands.item_selected.connect(_on_spectator_hands)

	var c: Node = Online.client
	c.room_changed.connect(_refresh)
	c.room_closed.connect(_on_room_closed)
	# Methods, not lambdas: the client outlives this screen, and a method's connection goes with it.
	c.disconnected.connect(_on_disconnected)
	c.error.connect(_on_error)
	c.match_joined.connect(_open_table)
	c.reconnecting.connect(_on_reconnecting)
	c.connected.connect(_on_connected)
	_refresh(c.get_room())
	_status.text = Online.lobby_message
	Online.lobby_message = ""
	if Online.room_in_game():
		_open_table.call_deferred()


func _on_disconnected(code: int, _message: String) -> void:
	_gone_back(Online.error_text(code))


func _on_error(code: int, _message: String) -> void:
	_status.text = Online.error_text(code)


func _on_reconnecting(_attempt: int) -> void:
	_status.text = tr("ONLINE_RECONNECTING")


func _on_connected(_player_id: String) -> void:
	_status.text = ""


## Seat `seat`'s place (lobby_place.tscn, placed in the scene): its parts, its buttons wired.
## Its Fill options are FILL_KEYS, in that order; shut, a free seat's reads "AI ▾".
func _place(seat: int) -> Dictionary:
	var panel: Control = _table.place(seat)
	var who: Label = panel.get_node(^"Lines/Name")
	who.add_theme_font_override(&"font", Online.name_font())
	# A free seat can be taken by tapping it (change_seat); the server refuses a taken one.
	var sit: Button = panel.get_node(^"Lines/Buttons/SitHere")
	sit.pressed.connect(func() -> void: Online.client.change_seat(seat))
	var fill: OptionButton = panel.get_node(^"Lines/Buttons/Fill")
	fill.item_selected.connect(func(i: int) -> void: Online.client.set_seat(seat, i))
	return {panel = panel, name = who, ready = panel.get_node(^"Lines/Meta/ReadyMark"), fill = fill,
		where = panel.get_node(^"Lines/Meta/Where"), sit = sit, face = panel.get_node(^"Face/Portrait")}


## Draws the room (room_changed).
func _refresh(room: OnlineRoom) -> void:
	if room == null:
		return
	var c: Node = Online.client
	_code.text = room.code
	var host: bool = c.is_room_host()
	var me := _my_seat()
	var host_seat := room.host_seat
	var all_ready := true
	var seats := room.seats
	for s: RoomSeat in seats:
		var i := s.seat
		var row: Dictionary = _rows[i]
		var player := s.player
		var ai := s.ai
		var name_label: Label = row.name
		var ready_label: Label = row.ready
		var fill: OptionButton = row.fill
		var face: SeatAvatar = row.face
		var side := (i - maxi(me, 0) + 4) % 4
		_table.seat_at(i, side)
		# The player's own place says "you" once, in its name ("Ann (you)"), not again under it.
		(row.where as Label).text = "" if i == me else "SEAT_%d" % side
		(row.where as Label).visible = i != me
		if player != "":
			name_label.text = player
			if i == host_seat:
				name_label.text += "  " + tr("ONLINE_HOST_MARK")
			if i == me:
				name_label.text += "  " + tr("ONLINE_YOU_MARK")
		elif ai > 0:
			name_label.text = tr("ONLINE_AI_SEAT_FMT").format({level = tr(FILL_KEYS[clampi(ai, 1, 3)])})
		else:
			name_label.text = tr("ONLINE_SEAT_EMPTY")
		name_label.modulate.a = 1.0 if player == "" or s.connected else 0.55
		# The portrait: the player's face (by name), a robot for the AI, faint while the seat is free.
		face.ai = player == "" and ai > 0
		face.face_key = player.hash() if player != "" else i
		face.modulate.a = 0.35 if player == "" and ai == 0 else (1.0 if player == "" or s.connected else 0.55)
		var is_ready := s.ready or ai > 0
		ready_label.text = tr("ONLINE_READY_MARK") if is_ready else tr("ONLINE_NOT_READY")
		if player == "" and ai == 0:
			ready_label.text = ""  # Nobody sits there to be ready or not.
		ready_label.visible = ready_label.text != ""
		ready_label.add_theme_color_override(&"font_color", Color(0.5, 1, 0.6) if is_ready else Color(1, 1, 1, 0.75))
		var mark_box := ready_label.get_theme_stylebox(&"normal") as StyleBoxFlat
		if mark_box != null:
			mark_box.border_color = Color(0.5, 1, 0.6, 0.9) if is_ready else Color(1, 1, 1, 0.35)
		if (player == "" and ai == 0) or (player != "" and not s.ready):
			all_ready = false
		# The host fills empty seats; a seat with a person in it is theirs.
		fill.visible = host and player == ""
		fill.select(clampi(ai, 0, 3))
		if ai == 0:
			fill.text = tr("ONLINE_FILL_AI")  # shut, a free seat's choice reads "AI ▾"
		(row.sit as Button).visible = me >= 0 and player == "" and ai == 0 and not room.locked
	_table.hold_rows.call_deferred()
	_ready_button.visible = me >= 0
	_ready_button.set_pressed_no_signal(me >= 0 and me < seats.size() and seats[me].ready)
	_ready_button.text = "ONLINE_UNREADY" if _ready_button.button_pressed else "ONLINE_READY"
	_start.visible = host
	_start.disabled = not all_ready
	_disband.visible = host
	# The server's team (0: seats 0 and 2), shown from the host's side of the table.
	var shown := room.spectator_hands
	_spectator_hands.visible = host and me >= 0
	_spectator_hands.select(0 if shown < 0 else (1 if shown == me % 2 else 2))
	var spectators := room.spectators
	_info.text = tr("ONLINE_ROOM_INFO_FMT").format({rules = tr("RULES_" + room.rules.to_upper()),
		delay = room.spectator_delay, spectators = spectators})
	if c.is_spectator():
		_info.text += "  ·  " + tr("ONLINE_YOU_SPECTATE")


## Our seat (-1 when spectating), from the join.
func _my_seat() -> int:
	return -1 if Online.client.is_spectator() else Online.seat


func _on_spectator_hands(i: int) -> void:
	var me := _my_seat()
	var team := -1 if i == 0 or me < 0 else (me % 2 if i == 1 else 1 - me % 2)
	var code: int = Online.client.set_spectator_hands(team)
	if code != 0:
		_status.text = Online.error_text(code)


func _toggle_ready() -> void:
	Online.client.set_ready(_ready_button.button_pressed)


func _on_start() -> void:
	var code: int = Online.client.start_room()
	if code != 0:
		_status.text = Online.error_text(code)


func _on_disband() -> void:
	Online.client.disband_room()


func _leave() -> void:
	_leaving = true
	Online.client.leave_room()
	Online.forget_room()
	EventBus.screen_requested.emit(&"online")


func _open_table() -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	EventBus.match_requested.emit(Online.table_config())


## The room is gone (closed by the host, or the connection for good): back to the Online menu,
## which says why.
## The room is gone: why, said in the player's language, not the server's.
func _on_room_closed(reason: String) -> void:
	_gone_back(Online.room_closed_text(reason))


func _gone_back(message: String) -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	Online.last_message = message if message != "" else tr("ONLINE_ROOM_CLOSED")
	EventBus.screen_requested.emit(&"online")
