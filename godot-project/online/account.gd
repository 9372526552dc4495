extends Control
## Online → Account: the player's account on the server of the Online menu (Settings'
## online_server). Shows who it is (a guest, or the login name it was claimed with), and lets the
## player claim it (name, password twice), log in to a claimed account on this device, show a
## one-time transfer code (big, with how long it lasts) or enter one from another device, log out,
## and log out everywhere (after a question). A new session (log in, transfer code) is kept by
## Online for that server and used at the next connection. Every failure is said in words; a
## password is never shown, logged or kept.
## Laid out in three columns that fit a phone's landscape without scrolling (issue 54): who and
## log out; claiming or logging in, one at a time (a guest picks which); the transfer code.

@onready var _current: Label = %Current
@onready var _sessions: Label = %Sessions
@onready var _claim_panel: Control = %ClaimPanel
@onready var _login_panel: Control = %LoginPanel
@onready var _choose_claim: Button = %ChooseClaim
@onready var _choose_login: Button = %ChooseLogin
@onready var _claim_name: LineEdit = %ClaimName
@onready var _claim_password: LineEdit = %ClaimPassword
@onready var _claim_repeat: LineEdit = %ClaimRepeat
@onready var _login_name: LineEdit = %LoginName
@onready var _login_password: LineEdit = %LoginPassword
@onready var _code: Label = %TransferCode
@onready var _code_expiry: Label = %TransferExpiry
@onready var _enter_code: LineEdit = %EnterCode
@onready var _status: Label = %Status
@onready var _confirm_everywhere: ConfirmationDialog = %ConfirmEverywhere
@onready var _buttons: Array[Button] = [%Claim, %Login, %MakeCode, %Redeem, %LogOut, %LogOutEverywhere]

## The server the screen speaks to.
var server := ""
## The last `account` answer (null = none yet: no account kept, or not answered).
var account: AccountAnswer = null
## The request waiting for its answer ("" = none).
var waiting := ""
## A guest's choice between claiming its account and logging in to another (the middle column
## shows one); a claimed account only logs in.
var logging_in := false


func _ready() -> void:
	%Back.pressed.connect(EventBus.screen_requested.emit.bind(&"online"))
	%Claim.pressed.connect(claim)
	%Login.pressed.connect(login)
	%MakeCode.pressed.connect(make_code)
	%Redeem.pressed.connect(redeem)
	%LogOut.pressed.connect(log_out)
	%LogOutEverywhere.pressed.connect(func() -> void: _confirm_everywhere.popup_centered())
	_confirm_everywhere.confirmed.connect(log_out_everywhere)
	var choice := ButtonGroup.new()
	for b: Button in [_choose_claim, _choose_login]:
		b.button_group = choice
	_choose_claim.pressed.connect(choose.bind(false))
	_choose_login.pressed.connect(choose.bind(true))
	Online.client.account_done.connect(_on_done)
	Online.client.account_failed.connect(_on_failed)
	server = String(Settings.get_value(&"online_server"))
	(%Server as Label).text = tr("ACCOUNT_SERVER_FMT").format({server = server})
	_code.visible = false
	_code_expiry.visible = false
	_say("")
	refresh()
	%Back.grab_focus.call_deferred()


## Asks who the kept account is (none kept: the screen says so; logging in still works).
func refresh() -> void:
	account = null
	_show_account()
	if not Online.use_kept_account(server):
		return
	_ask("account", func() -> int: return Online.client.fetch_account())


func claim() -> void:
	if _claim_password.text != _claim_repeat.text:
		_say(tr("ACCOUNT_PASSWORDS_DIFFER"))
		return
	if not Online.use_kept_account(server):
		_say(tr("ACCOUNT_NO_ACCOUNT"))
		return
	_ask("claim", func() -> int: return Online.client.claim_account(_claim_name.text.strip_edges(), _claim_password.text))


func login() -> void:
	if not await _may_send():
		return
	_ask("login", func() -> int: return Online.client.login_account(server, _login_name.text.strip_edges(), _login_password.text))


func make_code() -> void:
	if not Online.use_kept_account(server):
		_say(tr("ACCOUNT_NO_ACCOUNT"))
		return
	_ask("transfer_code", func() -> int: return Online.client.make_transfer_code())


func redeem() -> void:
	if not await _may_send():
		return
	_ask("transfer", func() -> int: return Online.client.redeem_transfer_code(server, _enter_code.text))


func log_out() -> void:
	if Online.use_kept_account(server):
		_ask("log_out", func() -> int: return Online.client.log_out())


func log_out_everywhere() -> void:
	if Online.use_kept_account(server):
		_ask("log_out_everywhere", func() -> int: return Online.client.log_out_everywhere())


## The question asked before a password or code goes in plain text to a public host.
func _may_send() -> bool:
	if Online.apply_ca_file() != 0:
		_say(Online.ca_file_text())
		return false
	if not await Online.confirm_plaintext(server):
		_say(Online.error_text(Online.client.ERR_PLAINTEXT_NOT_ALLOWED))
		return false
	return true


## Sends a request (`request` returns the client's code): a refusal at once is said at once.
func _ask(what: String, request: Callable) -> void:
	if waiting != "":
		return
	if Online.apply_ca_file() != 0:
		_say(Online.ca_file_text())
		return
	var rc: int = request.call()
	if rc != 0:
		_say(_error_text(what, rc))
		return
	waiting = what
	_set_busy(true)
	if what != "account":  # asked by the screen itself: what was said stays
		_say(tr("ACCOUNT_WAITING"))


func _on_done(what: String, result: AccountAnswer) -> void:
	if what != waiting:
		return  # another screen's request
	waiting = ""
	_set_busy(false)
	if _status.text == tr("ACCOUNT_WAITING"):
		_say("")
	match what:
		"account", "claim":
			account = result
			if what == "claim":
				_claim_password.clear()
				_claim_repeat.clear()
				_say(tr("ACCOUNT_CLAIMED_FMT").format({name = String(result.name)}))
		"login", "transfer":
			Online.keep_session(server, String(result.nickname))
			_login_password.clear()
			_enter_code.clear()
			_say(tr("ACCOUNT_LOGGED_IN_FMT").format({nickname = String(result.nickname)}))
			refresh.call_deferred()
		"transfer_code":
			_code.text = String(result.code)
			_code_expiry.text = tr("ACCOUNT_CODE_EXPIRY_FMT").format({minutes = maxi(1, ceili(float(result.expires_in_s) / 60.0))})
			_code.visible = true
			_code_expiry.visible = true
		"log_out", "log_out_everywhere":
			Online.forget_account(server)
			account = null
			_code.visible = false
			_code_expiry.visible = false
			_say(tr("ACCOUNT_LOGGED_OUT"))
	_show_account()


func _on_failed(what: String, code: int, _message: String) -> void:
	if what != waiting:
		return
	waiting = ""
	_set_busy(false)
	_say(_error_text(what, code))
	Sfx.play(&"error")


## The player's words for a refusal: a wrong name or password, a wrong or used transfer code and a
## session that ended have their own; the rest are the Online screens' (`Online.error_text`).
func _error_text(what: String, code: int) -> String:
	if code == Online.client.ERR_AUTH_FAILED:
		match what:
			"login":
				return tr("ACCOUNT_ERR_WRONG_LOGIN")
			"transfer":
				return tr("ACCOUNT_ERR_WRONG_CODE")
			_:
				return tr("ACCOUNT_ERR_SESSION_ENDED")
	if code == Online.client.ERR_RATE_LIMITED:
		return tr("ACCOUNT_ERR_RATE_LIMITED")
	if code == Online.client.ERR_BAD_ARGUMENT and what == "transfer":
		return tr("ACCOUNT_ERR_BAD_CODE")
	return Online.error_text(code)


func _show_account() -> void:
	var claimed := account != null and account.name != ""
	if account == null:
		_current.text = tr("ACCOUNT_NONE")
		_sessions.text = ""
	elif claimed:
		_current.text = tr("ACCOUNT_CLAIMED_AS_FMT").format({name = String(account.name), nickname = String(account.nickname)})
		_sessions.text = tr("ACCOUNT_SESSIONS_FMT").format({n = int(account.sessions)})
	else:
		_current.text = tr("ACCOUNT_GUEST_FMT").format({nickname = String(account.nickname)})
		_sessions.text = tr("ACCOUNT_GUEST_NOTE")
	_claim_panel.visible = not claimed and not logging_in
	_login_panel.visible = claimed or logging_in
	(%Choice as Control).visible = not claimed
	(%LoginTitle as Control).visible = claimed
	_choose_claim.set_pressed_no_signal(not logging_in)
	_choose_login.set_pressed_no_signal(logging_in)
	for b: Button in [%MakeCode, %LogOut, %LogOutEverywhere]:
		b.disabled = account == null or waiting != ""


## Shows the claim form (false) or the login form (true) in the middle column.
func choose(login: bool) -> void:
	logging_in = login
	_show_account()


func _say(text: String) -> void:
	_status.text = text
	# No empty line over the columns: the screen fits a phone without scrolling.
	_status.visible = text != ""


func _set_busy(busy: bool) -> void:
	for b in _buttons:
		b.disabled = busy
	if not busy:
		_show_account()
