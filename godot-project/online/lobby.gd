extends Control
## The room before a match: the room code shown large with a copy button, the four seats with
## names, AI levels, ready marks and who is connected; ready / unready; the host fills empty
## seats with the server's AI (per seat), starts when everyone is ready, or disbands the room.
## When the match starts the online table opens; if the room closes or the connection is gone
## for good, the Online menu says why.

const FILL_KEYS: Array[String] = ["ONLINE_SEAT_OPEN", "AI_EASY", "AI_NORMAL", "AI_HARD"]

var _code: Label
var _rows: Array[Dictionary] = []
var _ready_button: Button
var _start: Button
var _disband: Button
var _status: Label
var _info: Label
var _leaving := false


func _ready() -> void:
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var safe := SafeArea.new()
	add_child(safe)
	var column := UiKit.vbox(14)
	safe.add_child(column)
	var top := UiKit.hbox(16)
	column.add_child(top)
	var back := UiKit.button("ONLINE_LEAVE", _leave, 22, Vector2(160, 52))
	back.name = "Leave"
	top.add_child(back)
	top.add_child(UiKit.label("ONLINE_LOBBY_TITLE", 40, Color(0.98, 0.85, 0.45)))
	var spacer := Control.new()
	spacer.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	top.add_child(spacer)
	top.add_child(UiKit.label("ONLINE_ROOM_CODE", 24))
	_code = UiKit.label("", 56, Color(1, 0.95, 0.7))
	_code.name = "RoomCode"
	_code.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	top.add_child(_code)
	var copy := UiKit.button("ONLINE_COPY", func() -> void:
		DisplayServer.clipboard_set(_code.text)
		_status.text = tr("ONLINE_COPIED"), 20, Vector2(120, 52))
	copy.name = "Copy"
	top.add_child(copy)

	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	column.add_child(scroll)
	var seats := UiKit.vbox(10)
	seats.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(seats)
	for seat in 4:
		seats.add_child(_seat_row(seat))
	_info = UiKit.label("", 18, Color(1, 1, 1, 0.7))
	_info.name = "Info"
	_info.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	seats.add_child(_info)

	var actions := UiKit.hbox(16)
	actions.alignment = BoxContainer.ALIGNMENT_CENTER
	column.add_child(actions)
	_ready_button = UiKit.button("ONLINE_READY", _toggle_ready, 24, Vector2(200, 60))
	_ready_button.name = "Ready"
	_ready_button.toggle_mode = true
	actions.add_child(_ready_button)
	_start = UiKit.button("ONLINE_START", _on_start, 24, Vector2(200, 60))
	_start.name = "Start"
	actions.add_child(_start)
	_disband = UiKit.button("ONLINE_DISBAND", _on_disband, 24, Vector2(200, 60))
	_disband.name = "Disband"
	actions.add_child(_disband)
	_status = UiKit.label("", 20, Color(1, 0.85, 0.7))
	_status.name = "Status"
	_status.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_status.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	column.add_child(_status)

	var c: Node = Online.client
	c.room_changed.connect(_refresh)
	c.room_closed.connect(_on_room_closed)
	# Methods, not lambdas: the client outlives this screen, and a method's connection goes with it.
	c.disconnected.connect(_on_disconnected)
	c.error.connect(_on_error)
	c.match_started.connect(_on_match_started)
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


func _on_match_started(_seed: int, _seat: int) -> void:
	_open_table()


func _on_reconnecting(_attempt: int) -> void:
	_status.text = tr("ONLINE_RECONNECTING")


func _on_connected(_player_id: String) -> void:
	_status.text = ""


func _seat_row(seat: int) -> Control:
	var panel := UiKit.panel()
	panel.name = "Seat%d" % seat
	var row := UiKit.hbox(16)
	# As tall as the Sit here button a free seat shows: the rows keep their places as seats fill.
	row.custom_minimum_size.y = 56
	panel.add_child(row)
	# Where the seat will be at the table as this player sees it (the table turns the room so
	# that the player sits south): "You", "East", "North", "West".
	var where := UiKit.label("", 22, Color(0.8, 0.95, 0.85))
	where.name = "Where"
	where.custom_minimum_size.x = 150
	row.add_child(where)
	var who := UiKit.label("", 26)
	who.name = "Name"
	who.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	who.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	who.clip_text = true
	who.add_theme_font_override(&"font", Online.name_font())
	row.add_child(who)
	var ready := UiKit.label("", 22)
	ready.name = "ReadyMark"
	ready.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	ready.custom_minimum_size.x = 160
	row.add_child(ready)
	# A free seat can be taken by tapping it (change_seat); the server refuses a taken one.
	var sit := UiKit.button("ONLINE_SIT_HERE", func() -> void: Online.client.change_seat(seat), 22, Vector2(160, 56))
	sit.name = "SitHere"
	row.add_child(sit)
	var fill := UiKit.options(FILL_KEYS, 0)
	fill.name = "Fill"
	fill.item_selected.connect(func(i: int) -> void: Online.client.set_seat(seat, i))
	row.add_child(fill)
	_rows.append({name = who, ready = ready, fill = fill, where = where, sit = sit})
	return panel


## Draws the room (room_changed).
func _refresh(room: Dictionary) -> void:
	if room.is_empty():
		return
	var c: Node = Online.client
	_code.text = String(room.get("code", ""))
	var host: bool = c.is_room_host()
	var me := _my_seat()
	var host_seat := int(room.get("host_seat", -1))
	var all_ready := true
	var seats: Array = room.get("seats", [])
	for s: Dictionary in seats:
		var i := int(s.seat)
		var row: Dictionary = _rows[i]
		var player := String(s.player)
		var ai := int(s.ai)
		var name_label: Label = row.name
		var ready_label: Label = row.ready
		var fill: OptionButton = row.fill
		(row.where as Label).text = "SEAT_%d" % ((i - maxi(me, 0) + 4) % 4)
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
		name_label.modulate.a = 1.0 if player == "" or bool(s.connected) else 0.55
		var is_ready := bool(s.ready) or ai > 0
		ready_label.text = tr("ONLINE_READY_MARK") if is_ready else tr("ONLINE_NOT_READY")
		ready_label.add_theme_color_override(&"font_color", Color(0.5, 1, 0.6) if is_ready else Color(1, 1, 1, 0.6))
		if (player == "" and ai == 0) or (player != "" and not bool(s.ready)):
			all_ready = false
		# The host fills empty seats; a seat with a person in it is theirs.
		fill.visible = host and player == ""
		fill.select(clampi(ai, 0, 3))
		(row.sit as Button).visible = me >= 0 and player == "" and ai == 0 and not bool(room.get("locked", false))
	_ready_button.visible = me >= 0
	_ready_button.set_pressed_no_signal(me >= 0 and me < seats.size() and bool(seats[me].ready))
	_ready_button.text = "ONLINE_UNREADY" if _ready_button.button_pressed else "ONLINE_READY"
	_start.visible = host
	_start.disabled = not all_ready
	_disband.visible = host
	var spectators := int(room.get("spectators", 0))
	_info.text = tr("ONLINE_ROOM_INFO_FMT").format({rules = tr("RULES_" + String(room.get("rules", "competition")).to_upper()),
		delay = int(room.get("spectator_delay", 3)), spectators = spectators})
	if c.is_spectator():
		_info.text += "  ·  " + tr("ONLINE_YOU_SPECTATE")


## Our seat (-1 when spectating), from the join.
func _my_seat() -> int:
	return -1 if Online.client.is_spectator() else Online.seat


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
## The room is gone (its host disbanded it): said in the player's language, not the server's.
func _on_room_closed(_message: String) -> void:
	_gone_back(tr("ONLINE_ROOM_CLOSED"))


func _gone_back(message: String) -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	Online.last_message = message if message != "" else tr("ONLINE_ROOM_CLOSED")
	EventBus.screen_requested.emit(&"online")
