class_name PromptRow
extends RefCounted
## The row above the action bar that speaks to the player, one thing at a time: a toast, else a
## banner, else the readings of an ambiguous selection, else the status line. Errors the player
## caused come here in words, with the error sound. The table owns one; TableLayout sets its rect.

var table: Table
var _toast_tween: Tween


func _init(owner_table: Table) -> void:
	table = owner_table


## Shows one of the four: the toast wins, then a banner, then the readings, then the status line.
func update() -> void:
	var readings_box: HBoxContainer = table.readings_box
	var toasting: bool = (table.toast_label as Label).modulate.a > 0.0
	var announcing: bool = (table.banner as Banner).is_showing()
	readings_box.visible = not toasting and not announcing
	(table.status as Label).visible = readings_box.visible and readings_box.get_child_count() == 0


## Shows a message for pacing.toast_s seconds (a banner gives way to it).
func toast(text: String) -> void:
	var label: Label = table.toast_label
	label.text = text
	if _toast_tween != null:
		_toast_tween.kill()
	(table.banner as Banner).dismiss()
	place_toast()
	label.modulate.a = 1.0
	# The table's tween: it stops with the table.
	_toast_tween = table.create_tween()
	_toast_tween.tween_interval((table.pacing as PacingProfile).toast_s)
	_toast_tween.tween_property(label, "modulate:a", 0.0, 0.4)
	update()


## Centres the toast's plate on its text inside the row.
func place_toast() -> void:
	var label: Label = table.toast_label
	var rect: Rect2 = table.prompt_rect
	var font := label.get_theme_font(&"font")
	var fs := label.get_theme_font_size(&"font_size")
	var w := minf(font.get_string_size(label.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x + 40.0, rect.size.x)
	label.size = Vector2(w, rect.size.y)
	label.position = Vector2(rect.get_center().x - w / 2.0, rect.position.y)


## Hides the toast at once (a banner takes the row).
func dismiss_toast() -> void:
	if _toast_tween != null:
		_toast_tween.kill()
	(table.toast_label as Label).modulate.a = 0.0


## Stops the toast's clock (the table leaves the tree).
func stop() -> void:
	if _toast_tween != null:
		_toast_tween.kill()


## An error the player caused, in words, with the error sound.
func say_error(text: String) -> void:
	toast(text)
	Sfx.play(&"error")


## An engine error code in words (a play that does not beat the table names what it must beat).
func show_error(code: int) -> void:
	var key := "ERR_%d" % code
	# Online some codes mean something else at the table (Io: the connection is down, not a file).
	if table.config != null and table.config.online and tr("ONLINE_TABLE_ERR_%d" % code) != "ONLINE_TABLE_ERR_%d" % code:
		key = "ONLINE_TABLE_ERR_%d" % code
	var text := tr(key)
	var table_play: Play = table.table_play
	if code == 9 and table_play != null:
		text = tr("DOES_NOT_BEAT_TABLE_FMT").format({table = PlayText.describe(table_play),
			seat = Wording.seat_in_text(table.table_play_seat, table.local_seat, table.spectator)})
	say_error(text if text != key else tr("ERR_GENERIC").format({code = code}))
