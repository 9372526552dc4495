class_name RankTable
extends Resource
## The ranks a ranked player's shown rating falls into (resources/online/rank_table.tres): the
## match's end calls out a rank crossed, the online home says the player's rank. The server keeps
## no ranks (docs/server.md, "Ratings": the shown number starts at 1000 and rises as the system
## grows sure of a good player); the bands are the game's, on that number.

## The least rating of each rank, rising; the first is the floor of all.
@export var floors := PackedInt32Array([0, 1200, 1400, 1600, 1800])
## Each rank's name (a translation key), in the order of `floors`.
@export var name_keys := PackedStringArray(["RANK_NOVICE", "RANK_SKILLED", "RANK_EXPERT", "RANK_MASTER", "RANK_CHAMPION"])

static var _current: RankTable


## The game's table.
static func current() -> RankTable:
	if _current == null:
		_current = load("res://resources/online/rank_table.tres")
	return _current


## The rank (0 = the lowest) of `rating`.
func rank_of(rating: int) -> int:
	var rank := 0
	for i in floors.size():
		if rating >= floors[i]:
			rank = i
	return rank


## The rank's name, translated.
func rank_name(rank: int) -> String:
	return TranslationServer.translate(name_keys[clampi(rank, 0, name_keys.size() - 1)])
