class_name MatchResume
extends RefCounted
## Playing a match on from where it was: a saved record (Continue) or, after a fatal engine error
## (the `crashed` event), the last valid state the engine kept. Both announce the deal so far; its
## events are marked `restoring` so the table draws them at once. Reached as
## `MatchController.resume`.
##
## The crash report of a panic is the engine's (Rust, guandan-godot's engine/crash.rs writes
## user://crash/crash_<ms>.json); a record that cannot be continued is not a panic, so the engine
## writes nothing for it and the report of that (load_<s>.json) is written here.

## Set while the engine announces a resumed match: MatchController marks its events `restoring`.
var restoring := false
var _match: MatchController


func _init(live: MatchController) -> void:
	_match = live


## Resumes the saved record `record` at its end with `seats` (the same record file is then saved
## again). Returns the recorder's or the engine's code; on failure the Continue entry is dropped
## and a report is written.
func from_record(record: String, seats: Array) -> int:
	var engine: GuandanEngine = _match.engine
	var rec := ReplayRecorder.new()
	var code := rec.load(record)
	if code == GuandanEngine.OK:
		code = rec.seek(rec.get_action_count())
	if code == GuandanEngine.OK:
		restoring = true
		code = engine.resume_from(rec, seats)
		restoring = false
	if code == GuandanEngine.OK:
		_match.record.name = record
		_match.config.seed = engine.get_seed()
	else:
		_write_load_failure(record, code, rec.get_last_error() if not rec.has_record() else engine.get_last_error())
		RecordLibrary.forget_continue()
	return code


## After a fatal engine error (the `crashed` event): plays on from the last valid state.
func after_crash() -> int:
	var engine: GuandanEngine = _match.engine
	if engine == null:
		return GuandanEngine.ERR_NO_MATCH
	restoring = true
	var code := engine.resume_last_valid(_match.started_seats)
	restoring = false
	return code


## The path of the last crash report ("" if none).
func last_crash_report() -> String:
	var engine: GuandanEngine = _match.engine
	return engine.get_last_crash_report() if engine != null else ""


## A record that cannot be continued: the error goes to user://crash/ beside the engine's reports.
static func _write_load_failure(record: String, code: int, message: String) -> String:
	DirAccess.make_dir_recursive_absolute("user://crash")
	var path := "user://crash/load_%d.json" % Time.get_unix_time_from_system()
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		return ""
	f.store_string(JSON.stringify({error = message, code = code, during = "continue", record = record}, "  "))
	f.close()
	return path
