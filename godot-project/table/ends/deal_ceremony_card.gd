class_name DealCeremonyCard
extends VBoxContainer
## The card of a deal's ceremony (issue 54: not a thin bar), under its title on the felt: the
## finishing order as portraits wearing their medals, then in one line the winning team's level
## change and the tribute the next deal opens with (none when the match is over). Built by `create`; its texts
## are translated already (the card lives one deal).

## The portraits' size in the card (lp).
const FACE_PX := 34.0
## The least room (lp) for the finishers in one row and the outcome in one line.
const WIDE_PX := 640.0

var _table: Table


## The card for `order` (seats in finishing order), `change` (the deal's levels) on `table`;
## `match_over`: the deal was the match's last (no tribute follows).
static func create(table: Table, order: PackedInt32Array, change: LevelChange, match_over: bool) -> DealCeremonyCard:
	var card := DealCeremonyCard.new()
	card.name = &"DealCeremonyCard"
	card.add_theme_constant_override(&"separation", 2)
	card._table = table
	var row := HBoxContainer.new()
	row.name = &"Finishers"
	row.alignment = BoxContainer.ALIGNMENT_CENTER
	row.add_theme_constant_override(&"separation", 14)
	card.add_child(row)
	for i in order.size():
		row.add_child(_finisher(table.badges[order[i]], i + 1))
	# One line under them: the winners' level change · the next deal's tribute (the card must fit
	# between the side seats and the hand at every size).
	var outcome := BoxContainer.new()
	outcome.name = &"Outcome"
	outcome.alignment = BoxContainer.ALIGNMENT_CENTER
	outcome.add_theme_constant_override(&"separation", 10)
	card.add_child(outcome)
	outcome.add_child(line(&"LevelChange", level_text(change, table.spectator), Color(0.98, 0.85, 0.45), 18))
	if not match_over:
		outcome.add_child(line(&"Dot", "·", Color(0.85, 0.9, 0.88), 18))
		outcome.add_child(line(&"Tribute", tribute_text(order, table.local_seat, table.spectator), Color(0.85, 0.9, 0.88), 18))
	return card


func _ready() -> void:
	get_viewport().size_changed.connect(_fit)
	_fit()


## Narrow felt (the history's column open at 1024×768): the finishers by portrait and medal only
## (the same faces as at the seats) and the outcome in two lines, so the card stays between the
## player's portrait, the side seats and the column.
func _fit() -> void:
	if _table == null or not is_instance_valid(_table):
		return
	var room := DealCeremony.card_rect(_table).size.x
	var narrow := room < WIDE_PX
	for name_label in (get_node(^"Finishers") as Node).find_children("Name", "Label", true, false):
		(name_label as Label).visible = not narrow
	var outcome := get_node(^"Outcome") as BoxContainer
	outcome.vertical = narrow
	var dot := outcome.get_node_or_null(^"Dot") as Control
	if dot != null:
		dot.visible = not narrow


## "Our team 5 → 8 (up 3)": the winners' level before and after.
static func level_text(change: LevelChange, spectator: bool) -> String:
	var t := int(change.winner_team)
	var from := change.before[t]
	var to := change.after[t]
	return TranslationServer.translate("CEREMONY_LEVEL_FMT").format({team = Wording.team(t, spectator),
		from = Cards.rank_label(from), to = Cards.rank_label(to), n = to - from})


## "Next deal: West pays a tribute to North": the last out pays the first; after a 双下 both
## losers pay both winners. (Whether it is resisted shows with the next deal's hands.)
static func tribute_text(order: PackedInt32Array, local: int, spectator: bool) -> String:
	if order.size() < 2:
		return ""
	var payers := PackedInt32Array()
	var receivers := PackedInt32Array()
	if order[0] % 2 == order[1] % 2:
		for seat in 4:
			if seat % 2 != order[0] % 2:
				payers.append(seat)
		receivers = PackedInt32Array([order[0], order[1]])
	else:
		payers.append(order[order.size() - 1] if order.size() == 4 else _last_of(order))
		receivers.append(order[0])
	var text := Wording.tribute_phase(false, payers, local, spectator, receivers)
	return TranslationServer.translate("CEREMONY_TRIBUTE_NEXT_FMT").format({text = text})


## The seat that did not go out (an order cut short lists only those out).
static func _last_of(order: PackedInt32Array) -> int:
	for seat in 4:
		if not order.has(seat):
			return seat
	return order[order.size() - 1]


## A seat's portrait as the table draws it (its face, AI or not), wearing medal `place`.
static func face(badge: SeatBadge, px: float, place: int) -> SeatAvatar:
	var from := badge.avatar()
	var a := SeatAvatar.new()
	a.seat = from.seat
	a.face_key = from.face_key
	a.ai = from.ai
	a.fixed_size = Vector2.ONE * px
	a.custom_minimum_size = Vector2.ONE * px
	a.place = place
	return a


## The name a seat's badge shows ("You", "East", a spectator's seat title).
static func seat_title(badge: SeatBadge) -> String:
	var shown := badge.get_node_or_null(^"%SeatName") as Label
	return shown.text if shown != null else badge.title


static func _finisher(badge: SeatBadge, place: int) -> Control:
	var box := HBoxContainer.new()
	box.name = "Place%d" % place
	box.add_theme_constant_override(&"separation", 6)
	var a := face(badge, FACE_PX, place)
	a.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	box.add_child(a)
	# "West 1st": the name, then the medal's word in the medal's colour.
	box.add_child(line(&"Name", seat_title(badge), Color.WHITE, 18))
	var medal_color: Color = SeatStyle.current().medal_colors[mini(place - 1, 3)]
	box.add_child(line(&"Medal", TranslationServer.translate("PLACE_%d" % place), medal_color, 18))
	return box


## A centred line of already-translated text (the match's end screen makes its lines here too).
static func line(id: StringName, text: String, color: Color, font_px := 20) -> Label:
	var l := Label.new()
	l.name = id
	l.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	l.text = text
	l.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	l.add_theme_font_size_override(&"font_size", font_px)
	l.add_theme_color_override(&"font_color", color)
	return l
