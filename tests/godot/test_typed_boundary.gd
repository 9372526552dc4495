extends GdTestSuite
## Issue 55: no Dictionary of game data crosses from Rust to GDScript. Every class the extension
## registers (ClassDB, the API type of GuandanEngine's) is read: a signal argument, a method's
## return value or a property that is a Dictionary (or an Array of Dictionaries) fails the test
## unless NOT_GAME_DATA names it with its reason (an entry that no longer matches fails too).

## Dictionaries that do not carry game data.
const NOT_GAME_DATA := {
	"GuandanEngine.error_codes": "the ERR_* names and numbers (constants, not the game's state)",
	"GuandanClient.create_room": "an argument: the room's settings as the menu collects them (validated in Rust)",
	"GuandanClient.get_credentials": "the kept guest account {player_id, token}, written as-is to the account file",
	"ReplayRecorder.get_players": "a record file's header (names and AI levels as the file format stores them)",
}


## The classes the extension registers.
static func extension_classes() -> Array[StringName]:
	var api := ClassDB.class_get_api_type(&"GuandanEngine")
	var out: Array[StringName] = []
	for c in ClassDB.get_class_list():
		if ClassDB.class_get_api_type(c) == api:
			out.append(c)
	return out


## A Dictionary, or an Array typed as holding Dictionaries.
static func is_dictionary(info: Dictionary) -> bool:
	var type := int(info.get("type", TYPE_NIL))
	return type == TYPE_DICTIONARY or (type == TYPE_ARRAY and "Dictionary" in String(info.get("hint_string", "")))


## "Class.member" of every Dictionary in a signal, a method's return or arguments, or a property.
static func dictionaries() -> Array[String]:
	var out: Array[String] = []
	for c in extension_classes():
		for s: Dictionary in ClassDB.class_get_signal_list(c, true):
			for a: Dictionary in s.args:
				if is_dictionary(a):
					out.append("%s.%s" % [c, s.name])
		for m: Dictionary in ClassDB.class_get_method_list(c, true):
			var hit: bool = is_dictionary(m.get("return", {}))
			for a: Dictionary in m.args:
				hit = hit or is_dictionary(a)
			if hit:
				out.append("%s.%s" % [c, m.name])
		for p: Dictionary in ClassDB.class_get_property_list(c, true):
			if is_dictionary(p):
				out.append("%s.%s" % [c, p.name])
	return out


func test_no_dictionary_of_game_data_crosses_the_boundary() -> void:
	var classes := extension_classes()
	expect(classes.has(&"GuandanEngine") and classes.has(&"GuandanClient") and classes.has(&"Play"),
		"the extension's classes are found (%d)" % classes.size())
	var found := dictionaries()
	var untyped: Array[String] = []
	for name in found:
		if not NOT_GAME_DATA.has(name):
			untyped.append(name)
	expect_eq(untyped, [] as Array[String], "Dictionaries of game data in the extension's API (type them: docs/godot-api-values.md)")
	for name: String in NOT_GAME_DATA.keys():
		expect(name in found, "%s is still a Dictionary (drop it from the allow-list)" % name)


func test_the_typed_values_are_read_only() -> void:
	# A handler cannot change what the engine announced (no setter on any field).
	for c: StringName in [&"Play", &"LevelChange", &"OnlineRoom", &"RoomSeat", &"LeaderboardPage", &"LeaderboardEntry",
			&"PlayerProfile", &"Rating", &"RatingPoint", &"AccountAnswer", &"MatchState", &"Turn", &"Tribute",
			&"SurrenderProposal", &"Hint", &"Reading", &"Selection", &"Completion", &"WildSnap", &"CardHeat",
			&"CardCounter", &"AiTrace", &"AiCandidate", &"RecordedAction", &"RecordedSignal",
			&"StatsRecord", &"PlayerFigures", &"RecordSummary", &"DamagedRecord", &"PlayerStatistics"]:
		var fields := 0
		for p: Dictionary in ClassDB.class_get_property_list(c, true):
			if ClassDB.class_has_method(c, "get_" + String(p.name), true):
				fields += 1
				expect(not ClassDB.class_has_method(c, "set_" + String(p.name), true), "%s.%s has no setter" % [c, p.name])
		expect(fields > 0, "%s has fields" % c)
