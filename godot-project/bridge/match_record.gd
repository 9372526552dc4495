class_name MatchRecord
extends RefCounted
## The replay record of the live match (user://records/<name>.jsonl, one file per match, saved
## at the end of each deal and when the player leaves) and its "Continue" entry. The files are
## RecordLibrary's; this keeps which ones are this match's. Reached as `MatchController.record`.

## This match's record name ("" before a match starts).
var name := ""
var _match: MatchController


func _init(live: MatchController) -> void:
	_match = live


## A fresh name for a match started now with `match_seed`.
func name_new(match_seed: int) -> void:
	name = "match_%s_%d" % [Time.get_datetime_string_from_system(false).replace(":", "-").replace("T", "_"),
		absi(match_seed) % 100000]


## The match so far as a record's text (JSON Lines; the table's deal review reads it), "" when
## there is no match or it is online (the server keeps online records).
func text() -> String:
	var config := _match.config
	if config == null or config.online or not _match.has_match():
		return ""
	var rec := ReplayRecorder.new()
	if rec.record(_match.engine) != GuandanEngine.OK:
		return ""
	return rec.to_text()


## Saves the match so far as its replay record (config save_record false turns it off, for
## tests); returns the record name, or "" when nothing was saved.
func save() -> String:
	var config := _match.config
	var engine: GuandanEngine = _match.engine
	if config == null or not config.save_record or not _match.has_match() or config.online or engine.get_action_count() == 0:
		return ""
	return name if RecordLibrary.save(engine, name) else ""


## Remembers this match for "Continue" (after saving its record); returns false when there is
## nothing to continue (no record — a match that is not saved, like the guided deal — or the
## match is over). Another match's Continue entry is never dropped here: only a new match the
## player chose to start over it replaces it (the app asks first, see ui/app.gd).
func remember_for_continue(saved_record: String) -> bool:
	var config := _match.config
	if config != null and config.online:
		return false  # online: the server keeps the match; an offline Continue entry stays
	var engine: GuandanEngine = _match.engine
	if saved_record == "" or config == null or not _match.has_match() or engine.is_match_over():
		forget_own_continue()
		return false
	return RecordLibrary.remember_continue(config, saved_record)


## Drops the Continue entry if it is this match's (its record), e.g. when the match is over; an
## entry of another match stays.
func forget_own_continue() -> void:
	RecordLibrary.forget_continue_of(name)
