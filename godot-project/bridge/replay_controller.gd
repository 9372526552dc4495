class_name ReplayController
extends Node
## Playback of one saved record (the replay screen's): open it, move through it (seek, step) and
## read the state and the events at the position — the live match's typed events (MatchEvent),
## made here from the record's event dictionaries (translated in Rust exactly as the engine's
## signals).
## A node because the AI's view resumes a probe engine as its child.

## The record being played back (`open_record`), or null.
var recorder: ReplayRecorder


## Loads a saved record for playback, at position 0. Returns the recorder's code (0 = OK).
func open_record(name: String) -> int:
	recorder = ReplayRecorder.new()
	var code := recorder.load(name)
	if code != GuandanEngine.OK:
		recorder = null
	return code


## Loads a record from its text (JSON Lines), at position 0. Returns the recorder's code.
func open_record_text(text: String) -> int:
	recorder = ReplayRecorder.new()
	var code := recorder.load_text(text)
	if code != GuandanEngine.OK:
		recorder = null
	return code


## The loaded record's text (JSON Lines), "" without one (the deal review reads it).
func record_text() -> String:
	return recorder.to_text() if recorder != null else ""


func has_record() -> bool:
	return recorder != null and recorder.has_record()


## Who sat where (the record's `{name, ai}` per seat; [] when it does not say).
func players() -> Array:
	return Array(recorder.get_players()) if recorder != null else []


func record_length() -> int:
	return recorder.get_action_count() if recorder != null else 0


func record_position() -> int:
	return recorder.get_position() if recorder != null else 0


## Moves the playback to the state after `n` actions (clamped).
func seek(n: int) -> void:
	if recorder != null:
		recorder.seek(clampi(n, 0, recorder.get_action_count()))


## One action forward; false at the end (or without a record).
func step_forward() -> bool:
	if recorder == null or recorder.get_position() >= recorder.get_action_count():
		return false
	return recorder.step_forward() == GuandanEngine.OK


## One action back; false at the start (or without a record).
func step_back() -> bool:
	if recorder == null or recorder.get_position() <= 0:
		return false
	return recorder.step_back() == GuandanEngine.OK


## The position at the playback position, every hand visible; null without a record.
func record_state() -> MatchState:
	return recorder.get_state() if recorder != null else null


## What the action that led to the playback position did, as typed events (arguments the event
## cannot be made of are refused with an error and left out).
func record_events() -> Array[MatchEvent]:
	var out: Array[MatchEvent] = []
	if recorder != null:
		for s: RecordedSignal in recorder.get_events():
			var e := MatchEvents.from_args(s.signal, s.args)
			if e != null:
				out.append(e)
	return out


## The AI's view of the decision at the playback position: its hints in the play phase, the
## options of a tribute or return; null when nobody acts. An engine is resumed there, paused,
## with that seat as the human the advisor helps, and dropped again.
func ai_view() -> ReplayAiView:
	var st := record_state()
	var to_act := st.to_act if st != null else PackedInt32Array()
	if to_act.is_empty():
		return null
	var seat := to_act[0]
	var probe := GuandanEngine.new()
	probe.paused = true
	probe.use_turn_timer = false
	add_child(probe)
	var seats: Array = [1, 1, 1, 1]
	seats[seat] = "human"
	var out := ReplayAiView.new(seat)
	if probe.resume_from(recorder, seats) == GuandanEngine.OK:
		var help := MoveAdvisor.new()
		help.attach(probe)
		match probe.get_phase():
			GuandanEngine.PHASE_PLAY:
				out.hints = help.hints(5)
			GuandanEngine.PHASE_TRIBUTE:
				out.options = probe.get_tribute_options()
			GuandanEngine.PHASE_RETURN:
				out.options = probe.get_return_options()
		help.attach(null)
		probe.stop_match()
	remove_child(probe)
	probe.free()
	return out
