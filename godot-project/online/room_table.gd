class_name RoomTable
extends Control
## The table before a match (the room lobby, the quick-match wait): four places (lobby_place.tscn,
## Seat0…Seat3) around the felt's oval, the same felt the game is played on. The scene
## (room_table.tscn) places %Oval and the four sides, %South, %East, %North and %West; a screen
## adds its middle (the room code card, the wait's card) as children and says which seat sits on
## which side (the player's at the bottom, as the table will turn the room).

## The ready mark's smallest text (off a phone; on one, the phone's floor).
const MARK_FONT_MIN := 11

## The felt's oval this table asked for (global), given back when it leaves.
var _oval := Rect2()
## The places of seats 0–3, taken before any moves to another side.
var _places: Array[Control] = []
## The sides as the player sees them: bottom, right, top, left.
@onready var _sides: Array[Control] = [%South, %East, %North, %West]


func _ready() -> void:
	for seat in 4:
		var spot: Control = get_node("%%Seat%d" % seat)
		var face: SeatAvatar = spot.get_node(^"Face/Portrait")
		face.seat = seat
		# The ready mark sits on the portrait's foot, never wider than the portrait (fit_mark).
		var mark: Label = spot.get_node(^"Face/ReadyMark")
		mark.set_meta(&"own_font_size", mark.get_theme_font_size(&"font_size"))
		mark.resized.connect(fit_mark.bind(spot))
		var face_box: Control = spot.get_node(^"Face")
		face.resized.connect(func() -> void:
			face_box.custom_minimum_size = face.size
			fit_mark(spot))
		_places.append(spot)
	(%Oval as Control).resized.connect(ask_oval)
	get_viewport().size_changed.connect(ask_oval)
	# After the Readability autoload, which raises the buttons on the same signal.
	get_viewport().size_changed.connect(hold_rows, CONNECT_DEFERRED)
	ask_oval.call_deferred()
	hold_rows.call_deferred()


## Each place's row of buttons ("Sit", "AI ▾") as tall as its tallest button, shown or not (a
## phone raises them to its tap floor; a hidden button tells no one): the places keep their
## height as seats fill. Run after the screen fills the places and whenever the view changes.
func hold_rows() -> void:
	for spot in _places:
		var row: Control = spot.get_node(^"Lines/Buttons")
		var h := 0.0
		for b: Control in row.get_children():
			h = maxf(h, b.get_combined_minimum_size().y)
		row.custom_minimum_size.y = h


## The ready mark ("Ready", "Not ready") of a place within its portrait's width: its own size
## while it fits, else smaller (down to MARK_FONT_MIN), and wrapped onto a second line above if
## even that is too wide. A phone's text floor keeps the mark's text large: there the portrait
## grows instead, to the widest word a mark can show. Run when the mark or the portrait changes
## size (its text changed, the view changed).
func fit_mark(spot: Control) -> void:
	var face: SeatAvatar = spot.get_node(^"Face/Portrait")
	var mark: Label = spot.get_node(^"Face/ReadyMark")
	var floor_fs := UiLayout.text_floor(get_viewport().get_visible_rect().size)
	var least := maxi(MARK_FONT_MIN, floor_fs)
	var pad := mark.get_theme_stylebox(&"normal").get_minimum_size().x
	var font := mark.get_theme_font(&"font")
	var portrait := 0.0  # 0: the style's size
	if floor_fs > 0:
		for key in ["ONLINE_READY_MARK", "ONLINE_NOT_READY"]:
			for word in tr(key).split(" ", false):
				portrait = maxf(portrait, ceilf(font.get_string_size(word, HORIZONTAL_ALIGNMENT_LEFT, -1, floor_fs).x + pad))
		portrait = maxf(portrait, SeatStyle.current().avatar_size)
	if not is_equal_approx(face.fixed_size.x, portrait):
		face.fixed_size = Vector2.ONE * portrait  # resized: back here at the new size
	var width := face.size.x
	if width <= 0.0 or mark.text == "":
		return
	var own := int(mark.get_meta(&"own_font_size", 16))
	var fs := maxi(own, least)
	while fs > least and font.get_string_size(mark.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x + pad > width:
		fs -= 1
	var wide := font.get_string_size(mark.text, HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x + pad > width
	# Written only when they change: each write resizes the mark, which brings it back here.
	if mark.get_theme_font_size(&"font_size") != fs:
		mark.add_theme_font_size_override(&"font_size", fs)
	var wrap := TextServer.AUTOWRAP_WORD_SMART if wide else TextServer.AUTOWRAP_OFF
	if mark.autowrap_mode != wrap:
		mark.autowrap_mode = wrap
	if wide:
		# Wrapped: as wide as the portrait, growing upward over it.
		mark.grow_vertical = Control.GROW_DIRECTION_BEGIN
		if not is_equal_approx(mark.size.x, width):
			mark.offset_left = -width / 2.0
			mark.offset_right = width / 2.0


## Seat `seat`'s place.
func place(seat: int) -> Control:
	return _places[seat]


## Puts seat `seat`'s place on `side` (0 bottom, 1 right, 2 top, 3 left).
func seat_at(seat: int, side: int) -> void:
	var p := _places[seat]
	if p.get_parent() != _sides[side]:
		p.reparent(_sides[side], false)


## Asks the felt (the "felt" group) for the oval: %Oval's rect, as the scene places it.
func ask_oval() -> void:
	if not is_inside_tree() or is_queued_for_deletion():
		return
	_oval = (%Oval as Control).get_global_rect()
	get_tree().call_group(&"felt", &"show_table", _oval)


func _exit_tree() -> void:
	# The plain cloth back, unless the next screen (the online table) already asked for its own oval.
	for felt in get_tree().get_nodes_in_group(&"felt"):
		if felt.get("oval") == _oval:
			felt.call(&"show_table", Rect2())
