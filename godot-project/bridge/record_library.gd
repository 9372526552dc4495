class_name RecordLibrary
extends RefCounted
## The replay records on disk (user://records/<name>.jsonl, written and checked in Rust by
## ReplayRecorder): saving a match, the list, deleting, the statistics over them and their
## export, and the Continue entry (`user://continue.tres`) that points at one of them.
## Static only: the files are the state, so every screen reads the same library.

## The local player's name in records: statistics are kept under it.
const LOCAL_PLAYER := "You"
## Where the match to continue is remembered (record name + config), written when the player
## leaves an unfinished match or the app closes.
const CONTINUE_PATH := "user://continue.tres"


## Records `engine`'s match so far and saves it as `name`; true when it was written.
static func save(engine: GuandanEngine, name: String) -> bool:
	var rec := ReplayRecorder.new()
	if rec.record(engine) != GuandanEngine.OK:
		return false
	return rec.save(name) == GuandanEngine.OK


## The saved records (user://records), newest first.
static func list_records() -> PackedStringArray:
	var sorted := Array(ReplayRecorder.list_records())
	sorted.sort()
	sorted.reverse()
	return PackedStringArray(sorted)


static func delete_record(name: String) -> int:
	return ReplayRecorder.delete_record(name)


## Player statistics over the saved records (ReplayRecorder.stats). Rebuilt in Rust when the
## stored file is missing, damaged or stale.
static func stats(rebuild := false) -> PlayerStatistics:
	return ReplayRecorder.stats(rebuild)


## The local player's figures in `stats` (null when there are none).
static func local_figures(stats: PlayerStatistics) -> PlayerFigures:
	return stats.player(LOCAL_PLAYER) if stats != null else null


## Copies the statistics file to `dir` (default: the user's documents folder, else
## user://stats/export) as guandan_stats.json; returns the path written, or "".
static func export_stats(dir := "") -> String:
	var src := stats().path
	if src == "" or not FileAccess.file_exists(src):
		return ""
	if dir == "":
		dir = OS.get_system_dir(OS.SYSTEM_DIR_DOCUMENTS)
		if dir == "" or not DirAccess.dir_exists_absolute(dir):
			dir = ProjectSettings.globalize_path("user://stats/export")
	DirAccess.make_dir_recursive_absolute(dir)
	var dest := dir.path_join("guandan_stats.json")
	return dest if DirAccess.copy_absolute(src, dest) == OK else ""


# --- Continue ----------------------------------------------------------------------------------

## Remembers the match of `config` for "Continue" at its saved record `record`; true when written.
## Whether a match may be remembered is the MatchController's call (remember_for_continue).
static func remember_continue(config: MatchConfig, record: String) -> bool:
	var c: MatchConfig = config.duplicate(true)
	c.resume_record = record
	return ResourceSaver.save(c, CONTINUE_PATH) == OK


## The match to continue (a MatchConfig with `resume_record`), or null when there is none or its
## record is gone.
static func continue_config() -> MatchConfig:
	if not FileAccess.file_exists(CONTINUE_PATH):
		return null
	var c := ResourceLoader.load(CONTINUE_PATH, "", ResourceLoader.CACHE_MODE_IGNORE) as MatchConfig
	if c == null or c.resume_record == "" or not (c.resume_record in ReplayRecorder.list_records()):
		return null
	return c


## Drops the Continue entry if it is the one of `record`; an entry of another match stays.
static func forget_continue_of(record: String) -> void:
	var c := continue_config()
	if c != null and record != "" and c.resume_record == record:
		forget_continue()


static func forget_continue() -> void:
	if FileAccess.file_exists(CONTINUE_PATH):
		DirAccess.remove_absolute(ProjectSettings.globalize_path(CONTINUE_PATH))
