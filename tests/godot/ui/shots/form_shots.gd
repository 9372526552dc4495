extends "res://tests_godot/ui/shots/shot_script.gd"
## Screenshots of the two form screens, Account (a guest's, with a transfer code and a status line
## shown, then its login form) and Settings, in a real window, for the eye: every field's hint and
## every setting's caption whole. Run under Xvfb:
##   xvfb-run -a -s "-screen 0 2340x1080x24" tools/godot --path godot-project --resolution 2340x1080 \
##       --audio-driver Dummy res://tests_godot/ui/shots/form_shots.tscn -- --out DIR --locale zh_CN
## Writes DIR/<locale>_<W>x<H>_<shot>.png; exit code 0 = every shot saved.

const SHOTS: Array[String] = ["account", "account_login", "settings"]


func _ready() -> void:
	tag = "form_shots"
	if not _read_args():
		return
	Settings.use_file_for_tests("")
	Settings.set_value(&"locale", _locale)
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"online_server", "")  # the server field shows its hint
	var account: Control = load("res://online/account.tscn").instantiate()
	add_child(account)
	await _frames(10)
	account.call(&"_say", tr("ACCOUNT_ERR_WRONG_LOGIN"))
	for n: String in ["TransferCode", "TransferExpiry"]:
		(account.get_node("%" + n) as Label).visible = true
	(account.get_node(^"%TransferCode") as Label).text = "K7P2Q-X4M9R"
	(account.get_node(^"%TransferExpiry") as Label).text = tr("ACCOUNT_CODE_EXPIRY_FMT").format({minutes = 10})
	await _frames(10)
	await _shot("account")
	(account.find_child("ChooseLogin", true, false) as Button).pressed.emit()
	await _frames(10)
	await _shot("account_login")
	account.queue_free()
	var settings: Control = load("res://settings/settings_screen.tscn").instantiate()
	add_child(settings)
	await _frames(20)
	await _shot("settings")
	settings.queue_free()
	get_tree().quit(0 if _all_saved(SHOTS) else 1)
