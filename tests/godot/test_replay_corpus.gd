extends GdTestSuite
## The shared replay corpus (tests/replay-corpus): every good and damaged record gets, through
## ReplayRecorder, the verdict and code that verdicts.json gives it — the same file the Rust
## side (`guandan replay verify`, rust/guandan-cli/tests/replay_corpus.rs) is checked against, so
## the game and the CLI cannot disagree.

const COPY := "test_corpus_copy"


func after_each() -> void:
	if COPY in ReplayRecorder.list_records():
		ReplayRecorder.delete_record(COPY)


## tests/replay-corpus, next to the project (Godot reads it by its absolute path).
func _corpus_dir() -> String:
	return ProjectSettings.globalize_path("res://").path_join("../tests/replay-corpus").simplify_path()


func test_every_corpus_record_gets_its_verdict() -> void:
	var dir := _corpus_dir()
	var verdicts: Variant = JSON.parse_string(FileAccess.get_file_as_string(dir.path_join("verdicts.json")))
	if not expect(verdicts is Dictionary and not (verdicts as Dictionary).is_empty(), "verdicts.json read from %s" % dir):
		return
	var files := Array(DirAccess.get_files_at(dir)).filter(func(f: String) -> bool: return f.ends_with(".jsonl"))
	expect_eq(files.size(), (verdicts as Dictionary).size(), "every record has a verdict and every verdict a record")
	var good := 0
	var damaged := 0
	for file: String in verdicts:
		var verdict: Dictionary = verdicts[file]
		var code := int(verdict.code)
		expect_eq(bool(verdict.ok), code == 0, "%s: ok exactly when the code is 0" % file)
		var text := FileAccess.get_file_as_string(dir.path_join(file))
		expect(FileAccess.file_exists(dir.path_join(file)), "%s exists" % file)
		# From text (ReplayRecorder.load_text) ...
		var recorder := ReplayRecorder.new()
		expect_eq(recorder.load_text(text), code, "%s from text" % file)
		expect_eq(recorder.has_record(), code == 0, "%s: held only when valid" % file)
		if code != 0:
			expect_logged("(code %d)" % code)
			damaged += 1
		else:
			good += 1
			expect(recorder.get_action_count() > 0, "%s has actions" % file)
		# ... and from a saved file (ReplayRecorder.load), the way the replay screen opens it.
		var copy := FileAccess.open("user://records/%s.jsonl" % COPY, FileAccess.WRITE)
		copy.store_string(text)
		copy.close()
		expect_eq(recorder.load(COPY), code, "%s from a file" % file)
		if code != 0:
			expect_logged("(code %d)" % code)
	expect(good >= 2 and damaged >= 10, "the corpus has good (%d) and damaged (%d) records" % [good, damaged])
	expect_eq(int(verdicts.get("checkpoint_past_end.jsonl", {}).get("code", -1)), GuandanEngine.ERR_LOG_CHECKPOINT,
		"a checkpoint past the end is refused as a misplaced checkpoint")
