extends Node
## What the windowed screenshot scripts share (tour.gd, table_shots.gd, moments.gd,
## moment_shots.gd): their arguments, the file names DIR/<locale>_<W>x<H>_<shot>.png, saving a
## shot, waiting, and the human seat following the advisor's first hint. A script extends this
## file, sets `tag` and calls `_read_args()` first.

## Prefixes the script's log lines.
var tag := "shots"
var _out := ""
var _locale := "en"
## <locale>_<W>x<H>
var _prefix := ""
## Shot name -> the file written ("" for a probe run that writes none).
var _saved: Dictionary = {}
## Every "--key value" pair of the user arguments (after "--").
var _args: Dictionary = {}


## Reads --out (required) and --locale; false (and the run ends with 2) without --out.
func _read_args() -> bool:
	var args := OS.get_cmdline_user_args()
	for i in range(0, args.size() - 1, 2):
		_args[args[i]] = args[i + 1]
	_out = String(_args.get("--out", ""))
	_locale = String(_args.get("--locale", "en"))
	if _out == "":
		printerr("%s: --out DIR is required" % tag)
		get_tree().quit(2)
		return false
	DirAccess.make_dir_recursive_absolute(_out)
	var win := DisplayServer.window_get_size()
	_prefix = "%s_%dx%d" % [_locale, win.x, win.y]
	return true


## An integer argument (`--seed 3`), or `default`.
func _int_arg(key: String, default: int) -> int:
	return String(_args[key]).to_int() if _args.has(key) else default


func _shot(name: String) -> void:
	if _saved.has(name):
		return
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var path := _out.path_join("%s_%s.png" % [_prefix, name])
	var err := image.save_png(path)
	if err == OK:
		_saved[name] = path
		print("%s: saved %s (%dx%d)" % [tag, path, image.get_width(), image.get_height()])
	else:
		printerr("%s: cannot write %s: %s" % [tag, path, error_string(err)])


## Every one of `shots` was saved.
func _all_saved(shots: Array[String]) -> bool:
	for s in shots:
		if not _saved.has(s):
			printerr("%s: %s: no %s shot (saved: %s)" % [tag, _prefix, s, _saved.keys()])
			return false
	return true


func _fail(why: String) -> bool:
	printerr("%s: %s: %s" % [tag, _prefix, why])
	return false


func _frames(n: int) -> void:
	await Waits.frames(get_tree(), n)


func _until(cond: Callable, seconds: float) -> bool:
	return await Waits.until(get_tree(), cond, seconds)


## The human seat plays the advisor's first hint (passing when it has none and may pass), so a
## scripted match is the same every run.
func _play_first_hint(table: Table) -> void:
	var hints: Array = table.controller.advice.hints(1)
	var cards := PackedInt32Array()
	if not hints.is_empty():
		cards = (hints[0].play.cards if hints[0].play != null else PackedInt32Array())
	if cards.is_empty() and table.can_pass:
		table._on_pass_pressed()
		return
	if cards.is_empty():
		cards = PackedInt32Array([table.hand.display_order()[0]])
	table.hand.set_selected(cards)
	table.play_selection(-1)


## Lets animations and the banner finish so the shot shows a still table.
func _settle(table: Table) -> void:
	await _frames(10)
	await _until(func() -> bool: return not table.banner.is_showing(), 5.0)
	await _frames(10)


## The app's current screen when it is the table, else null.
func _table_of(app: Control) -> Table:
	var current: Control = app.current
	return current if current != null and app.current_name == &"table" else null
