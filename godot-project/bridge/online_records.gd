class_name OnlineRecords
extends Node
## The player's online matches kept as replay records: when the server says a match of the
## player's room is stored (`match_stored`), its record is downloaded, replayed whole in Rust and
## kept among the records (`online_<code>_<n>`), so Replays lists it and its review (复盘) is
## made like any other. A child of the online session; it only listens to the client.

## A finished match's record is kept (its name, and the seat the player had).
signal kept(record: String, seat: int)
## The download failed (the record stays on the server: `guandan review` can still read it).
signal failed(message: String)

## Which seat the player had in each kept record (record name -> seat): the review is of it.
const SEATS_PATH := "user://online_records.cfg"

## The last record kept ("" before one), and the seat the player had in it.
var last_kept := ""
var last_seat := -1
var _client: GuandanClient
var _room := ""
var _seat := -1
## Match number -> the seat the player had when it was stored (a download in flight).
var _asked: Dictionary[int, int] = {}


func watch(client: GuandanClient) -> void:
	_client = client
	client.room_joined.connect(func(code: String, seat: int) -> void:
		_room = code
		_seat = seat)
	client.room_closed.connect(func(_m: String) -> void: _seat = -1)
	client.match_stored.connect(_on_match_stored)
	client.record_kept.connect(_on_record_kept)
	client.fetch_failed.connect(func(what: String, _code: int, message: String) -> void:
		if what == "record":
			push_warning("OnlineRecords: the match's record was not kept: %s" % message)
			failed.emit(message))


func _on_match_stored(match_no: int) -> void:
	# Spectators watch other people's matches: only a player's own are kept.
	if _room == "" or _seat < 0:
		push_warning("OnlineRecords: match %d stored, not kept (room %s, seat %d)" % [match_no, _room, _seat])
		return
	_asked[match_no] = _seat
	var code := _client.fetch_match_record(_room, match_no)
	if code != GuandanEngine.OK:
		# Refused at once: `fetch_failed` says why (warned and passed on above).
		_asked.erase(match_no)


func _on_record_kept(record: String) -> void:
	var n := int(record.get_slice("_", record.get_slice_count("_") - 1))
	last_kept = record
	last_seat = _asked[n] if _asked.has(n) else _seat
	_asked.erase(n)
	var seats := ConfigFile.new()
	seats.load(SEATS_PATH)
	seats.set_value("seats", record, last_seat)
	if seats.save(SEATS_PATH) != OK:
		push_warning("OnlineRecords: cannot write %s" % SEATS_PATH)
	kept.emit(last_kept, last_seat)


## The seat the player had in the kept online record `record`, -1 when it is not one.
static func seat_of(record: String) -> int:
	var seats := ConfigFile.new()
	if not record.begins_with("online_") or seats.load(SEATS_PATH) != OK:
		return -1
	return int(seats.get_value("seats", record, -1))
