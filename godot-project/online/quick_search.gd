extends Control
## Quick match, waiting: the table it will be (room_table.tscn) filling up as the server finds
## players, how long the player has waited (on the card in the middle), and Cancel (back to the
## Online menu). The server seats the player at a ranked table of
## similar players (or, after a while, with AI seats) and its match starts at once: the online
## table opens on it. A lost connection or a refusal goes back to the Online menu, which says why.

@onready var _found: Label = %Found
@onready var _waited: Label = %Waited
@onready var _status: Label = %Status
@onready var _rules: Label = %Rules
## The four places around the felt: the player's at the bottom, the others filling as players are found.
@onready var _table: RoomTable = %Table
var _leaving := false
## The wait as the server last said it, and when (the seconds shown run on between its words).
var _waited_ms := 0
var _heard_at := 0
## The rule preset waited for (a reconnect queues again for it: the server forgets a connection's
## wait when the connection goes).
var _rules_key := ""
var _reconnecting := false


func _ready() -> void:
	%Cancel.pressed.connect(_cancel)
	var c: Node = Online.client
	# Methods, not lambdas: the client outlives this screen, and a method's connection goes with it.
	c.queue_status.connect(_on_queue_status)
	c.match_joined.connect(_on_match_joined)
	c.disconnected.connect(_on_disconnected)
	c.error.connect(_on_error)
	c.reconnecting.connect(_on_reconnecting)
	c.connected.connect(_on_connected)
	_heard_at = Time.get_ticks_msec()
	_show(1)


func _process(_delta: float) -> void:
	var seconds := (_waited_ms + Time.get_ticks_msec() - _heard_at) / 1000
	_waited.text = tr("QUICK_WAITED_FMT").format({seconds = seconds})


func _on_queue_status(rules: String, queued: bool, waited_ms: int, found: int) -> void:
	_rules_key = rules
	_rules.text = tr("RULES_" + rules.to_upper())
	if queued:
		_waited_ms = waited_ms
		_heard_at = Time.get_ticks_msec()
	_show(found)


func _show(found: int) -> void:
	found = clampi(found, 1, 4)
	_found.text = tr("QUICK_FOUND_FMT").format({found = found})
	for seat in 4:
		var place := _table.place(seat)
		var taken := seat < found
		var name_label: Label = place.get_node(^"Lines/Name")
		if seat == 0:
			name_label.add_theme_font_override(&"font", Online.name_font())
			name_label.text = String(Settings.get_value(&"online_nickname")) + "  " + tr("ONLINE_YOU_MARK")
		else:
			name_label.text = tr("QUICK_SEAT_FOUND") if taken else tr("ONLINE_SEAT_EMPTY")
		# The player's place says "you" once, in its name.
		(place.get_node(^"Lines/Meta/Where") as Label).text = "" if seat == 0 else "SEAT_%d" % seat
		(place.get_node(^"Face/Portrait") as CanvasItem).modulate.a = 1.0 if taken else 0.35
		(place.get_node(^"Lines/Meta/ReadyMark") as CanvasItem).visible = false
		(place.get_node(^"Lines/Buttons/SitHere") as CanvasItem).visible = false
		(place.get_node(^"Lines/Buttons/Fill") as CanvasItem).visible = false
	_table.hold_rows.call_deferred()


## The table is found and its match has started: the online table shows it.
func _on_match_joined() -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	Online.quick_room = Online.client.get_room_code()
	EventBus.match_requested.emit(Online.table_config())


func _cancel() -> void:
	if _leaving:
		return
	_leaving = true
	Online.client.queue_leave()
	EventBus.screen_requested.emit(&"online")


func _on_reconnecting(_attempt: int) -> void:
	_reconnecting = true
	_status.text = tr("ONLINE_RECONNECTING")


func _on_connected(_player_id: String) -> void:
	if not _reconnecting or _leaving:
		return
	_reconnecting = false
	_status.text = ""
	Online.client.queue_join(_rules_key)


func _on_error(code: int, _message: String) -> void:
	_gone_back(Online.error_text(code))


func _on_disconnected(code: int, _message: String) -> void:
	_gone_back(Online.error_text(code))


func _gone_back(message: String) -> void:
	if _leaving or not is_inside_tree():
		return
	_leaving = true
	Online.last_message = message
	EventBus.screen_requested.emit(&"online")
