class_name RoomTable
extends Control
## The table before a match (the room lobby, the quick-match wait): four places (lobby_place.tscn,
## Seat0…Seat3) around the felt's oval, the same felt the game is played on. The scene
## (room_table.tscn) places %Oval and the four sides, %South, %East, %North and %West; a screen
## adds its middle (the room code card, the wait's card) as children and says which seat sits on
## which side (the player's at the bottom, as the table will turn the room).

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
		# The ready mark is a chip after where the seat is (Lines/Meta/ReadyMark), never on the face.
		var face_box: Control = spot.get_node(^"Face")
		face.resized.connect(func() -> void: face_box.custom_minimum_size = face.size)
		_places.append(spot)
	(%Oval as Control).resized.connect(ask_oval)
	get_viewport().size_changed.connect(ask_oval)
	# After the Readability autoload, which raises the buttons on the same signal.
	get_viewport().size_changed.connect(hold_rows, CONNECT_DEFERRED)
	ask_oval.call_deferred()
	hold_rows.call_deferred()


## Each place's row of buttons ("Sit", "AI ▾") as tall as its tallest button, and its ready
## mark's line as tall as the mark, shown or not (a phone raises them to its floors; a hidden
## control tells no one): the places keep their height as seats fill. Run after the screen fills the places and whenever the view changes.
func hold_rows() -> void:
	for spot in _places:
		var row: Control = spot.get_node(^"Lines/Buttons")
		var h := 0.0
		for b: Control in row.get_children():
			h = maxf(h, b.get_combined_minimum_size().y)
		row.custom_minimum_size.y = h
		# The ready mark's line as tall as the mark, shown or not (a free seat has none).
		var meta: Control = spot.get_node(^"Lines/Meta")
		meta.custom_minimum_size.y = (spot.get_node(^"Lines/Meta/ReadyMark") as Control).get_combined_minimum_size().y


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
