extends Control
## Menu → Online: the server address and nickname (both remembered in Settings), then create a
## room (rule preset, spectator delay), join one by its code, or spectate one. Each failure —
## unreachable server, bad nickname, wrong code, room full or started, versions that do not
## match — is said here in words, and nothing is left half-built; success opens the lobby (or,
## spectating a match in progress, the table).

const RULES: Array[String] = ["competition", "huaian", "house", "no_shuffle"]
const RULE_KEYS: Array[String] = ["RULES_COMPETITION", "RULES_HUAIAN", "RULES_HOUSE", "RULES_NO_SHUFFLE"]

var _server: LineEdit
var _nick: LineEdit
var _rules: OptionButton
var _delay: SpinBox
var _code: LineEdit
var _status: Label
var _buttons: Array[Button] = []
var _busy := false


func _ready() -> void:
	var page := UiKit.page(self, "ONLINE_TITLE", &"menu")
	var column: VBoxContainer = page[0]
	var scroll: ScrollContainer = page[1]
	var body := UiKit.vbox(18)
	body.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(body)

	var who := GridContainer.new()
	who.columns = 2
	who.add_theme_constant_override(&"h_separation", 16)
	who.add_theme_constant_override(&"v_separation", 10)
	body.add_child(who)
	who.add_child(UiKit.label("ONLINE_SERVER", 22))
	_server = _line(String(Settings.get_value(&"online_server")), "127.0.0.1:7878")
	_server.name = "Server"
	who.add_child(_server)
	who.add_child(UiKit.label("ONLINE_NICKNAME", 22))
	_nick = _line(String(Settings.get_value(&"online_nickname")), tr("ONLINE_NICKNAME_HINT"))
	_nick.name = "Nickname"
	_nick.max_length = 24
	who.add_child(_nick)

	var create := UiKit.panel()
	body.add_child(create)
	var cbox := UiKit.vbox(10)
	create.add_child(cbox)
	cbox.add_child(UiKit.label("ONLINE_CREATE_TITLE", 26, Color(0.98, 0.85, 0.45)))
	var crow := UiKit.hbox(14)
	cbox.add_child(crow)
	crow.add_child(UiKit.label("MENU_RULES", 22))
	_rules = UiKit.options(RULE_KEYS, maxi(RULES.find(String(Settings.get_value(&"rules_preset"))), 0))
	_rules.name = "Rules"
	crow.add_child(_rules)
	crow.add_child(UiKit.label("ONLINE_SPECTATOR_DELAY", 22))
	_delay = SpinBox.new()
	_delay.name = "SpectatorDelay"
	_delay.min_value = 0
	_delay.max_value = 10
	_delay.value = 3
	_delay.custom_minimum_size = Vector2(120, 48)
	crow.add_child(_delay)
	_buttons.append(_add_button(cbox, "ONLINE_CREATE", _go.bind(&"create"), "Create"))

	var join := UiKit.panel()
	body.add_child(join)
	var jbox := UiKit.vbox(10)
	join.add_child(jbox)
	jbox.add_child(UiKit.label("ONLINE_JOIN_TITLE", 26, Color(0.98, 0.85, 0.45)))
	var jrow := UiKit.hbox(14)
	jbox.add_child(jrow)
	jrow.add_child(UiKit.label("ONLINE_CODE", 22))
	_code = _line("", tr("ONLINE_CODE_HINT"))
	_code.name = "Code"
	_code.max_length = 6
	_code.custom_minimum_size.x = 200
	_code.add_theme_font_size_override(&"font_size", 30)
	_code.text_changed.connect(func(t: String) -> void:
		var col := _code.caret_column
		_code.text = t.to_upper()
		_code.caret_column = col)
	jrow.add_child(_code)
	_buttons.append(_add_button(jrow, "ONLINE_JOIN", _go.bind(&"join"), "Join"))
	_buttons.append(_add_button(jrow, "ONLINE_SPECTATE", _go.bind(&"spectate"), "Spectate"))

	_status = UiKit.label("", 22, Color(1, 0.85, 0.7))
	_status.name = "Status"
	_status.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_status.custom_minimum_size.x = 480
	column.add_child(_status)
	if not Online.client.is_online() and Online.last_message != "":
		# Brought back here by a failure (disconnected for good, room closed): say what happened.
		_status.text = Online.last_message
	Online.last_message = ""
	_offer_remembered_room()


## A seat held in a room (the game was closed, or the connection lost for good, mid-match):
## its code is filled in and the player is told that Join takes the seat again.
func _offer_remembered_room() -> void:
	var room := Online.remembered_room(_server.text.strip_edges(), _nick.text.strip_edges())
	if room == "" or _code.text != "":
		return
	_code.text = room
	if _status.text == "":
		_status.text = tr("ONLINE_YOUR_ROOM_FMT").format({code = room})


func _line(text: String, placeholder: String) -> LineEdit:
	var l := LineEdit.new()
	l.text = text
	l.placeholder_text = placeholder
	l.custom_minimum_size = Vector2(360, 48)
	l.add_theme_font_size_override(&"font_size", 22)
	return l


func _add_button(parent: Control, key: String, callback: Callable, node_name: String) -> Button:
	var b := UiKit.button(key, callback, 22, Vector2(200, 52))
	b.name = node_name
	parent.add_child(b)
	return b


## What Create / Join / Spectate do (tests call it too). Returns 0 when the room was entered.
func go(action: StringName) -> int:
	if _busy:
		return -1
	_set_busy(true)
	_status.text = tr("ONLINE_CONNECTING")
	var code := _code.text.strip_edges().to_upper()
	var rc := Online.ensure_connected(_server.text.strip_edges(), _nick.text.strip_edges())
	if rc == 0:
		rc = await Online.wait_online()
	if rc == 0:
		_status.text = tr("ONLINE_ENTERING")
		var arg: Variant = code
		if action == &"create":
			Settings.set_value(&"rules_preset", RULES[maxi(_rules.selected, 0)])
			arg = {"rules": RULES[maxi(_rules.selected, 0)], "spectator_delay": int(_delay.value)}
		rc = await Online.enter(action, arg)
	if not is_inside_tree():
		return rc
	_set_busy(false)
	if rc == Online.client.ERR_ROOM_NOT_FOUND:
		Online.forget_room()  # the remembered room is gone
	if rc != 0:
		_status.text = Online.error_text(rc)
		Sfx.play(&"error")
		return rc
	_status.text = ""
	if Online.client.is_spectator() and Online.room_in_game():
		EventBus.match_requested.emit(Online.table_config())
	else:
		EventBus.screen_requested.emit(&"lobby")
	return 0


func _go(action: StringName) -> void:
	go(action)


func _set_busy(busy: bool) -> void:
	_busy = busy
	for b in _buttons:
		b.disabled = busy
