class_name SeatKinds
extends RefCounted
## One rule for who is drawn how, at every table (playing, watching, online, in a replay): a seat
## an AI plays for the whole match is a robot with its level (1 easy … 3 hard); a person is a
## face — also while the AI plays for them (auto-play, the server hosting an absent player: the
## badge says that itself). Each screen reads the levels from the data it has: the match config
## offline, the room's seats online, the record's players in a replay. Levels are by seat number
## (0 south … 3 west), 0 for a person.


## A local match: seats 1–3 at their configured levels; seat 0 is the player's, an AI only in
## a match of four AIs. Online the config says nothing of the seats: all persons until the
## room's seats are read (`from_room`).
static func from_config(config: MatchConfig) -> PackedInt32Array:
	if config.online:
		return PackedInt32Array([0, 0, 0, 0])
	var levels := PackedInt32Array([config.human_seat_level if config.all_ai else 0])
	for i in 3:
		levels.append(config.ai_levels[i] if i < config.ai_levels.size() else 0)
	return levels


## Online: the room's seats (`ai` the level of an AI seat, 0 for a player's seat, whoever
## watches).
static func from_room(room: OnlineRoom) -> PackedInt32Array:
	var levels := PackedInt32Array([0, 0, 0, 0])
	for s: RoomSeat in room.seats:
		if s.seat >= 0 and s.seat < 4:
			levels[s.seat] = s.ai if s.player == "" else 0
	return levels


## A replay: the record's players (`ReplayRecorder.get_players`, `{name, ai}` with `ai` "L1"…"L3"
## for an AI seat, "" for a person). A record without them shows four persons.
static func from_record(players: Array) -> PackedInt32Array:
	var levels := PackedInt32Array([0, 0, 0, 0])
	for seat in mini(players.size(), 4):
		var ai := String((players[seat] as Dictionary).get("ai", ""))
		levels[seat] = clampi(ai.substr(1).to_int(), 1, 3) if ai.begins_with("L") else 0
	return levels


## Shows `levels` (by seat number) on `badges` (by where the table draws them: 0 at the bottom),
## the seat drawn at the bottom being `bottom_seat`.
static func show(badges: Array, levels: PackedInt32Array, bottom_seat := 0) -> void:
	for seat in 4:
		(badges[(seat - bottom_seat + 4) % 4] as SeatBadge).ai_level = levels[seat]


## Online: the name each seat shows under its portrait, by seat number — a person's nickname
## (with `away_mark` after it while the person is disconnected), "" for an AI seat (its badge says
## where it sits and its level). The player's own seat is `own_seat` (-1 watching), named
## `own_nickname` while the room's seat list has not caught up.
static func names_from_room(room: OnlineRoom, own_seat: int, own_nickname: String, away_mark: String) -> PackedStringArray:
	var names := PackedStringArray(["", "", "", ""])
	for s: RoomSeat in room.seats:
		if s.seat < 0 or s.seat >= 4:
			continue
		var text := s.player
		if s.seat == own_seat:
			text = text if text != "" else own_nickname
		elif text != "" and not s.connected:
			text += "  " + away_mark
		names[s.seat] = text
	return names


## Shows `names` (by seat number) as the badges' titles — one name a seat, under its portrait —
## drawn in `font` (a nickname may hold any character; null: the badge's own font).
static func show_names(badges: Array, names: PackedStringArray, bottom_seat := 0, font: Font = null) -> void:
	for seat in 4:
		var badge := badges[(seat - bottom_seat + 4) % 4] as SeatBadge
		badge.title_font = font
		badge.title = names[seat]
