class_name MatchConfig
extends Resource
## What a match is started with: the menu fills one, EventBus.match_requested carries it, the
## table hands it to its MatchController. Typed fields instead of a free-form Dictionary, so a
## misspelt option is an error where it is written, not a silently ignored key.

## &"training" (hints, no turn clock) or &"match" (turn clock, no hints).
@export var mode: StringName = &"training"
## A rule preset: "competition", "huaian" or "house" (res://resources/rules/<name>.tres).
@export var rules := "competition"
## AI levels (1 easy .. 3 hard) of seats 1, 2, 3 (east, north, west).
@export var ai_levels: Array[int] = [2, 2, 2]
## The match seed; `has_seed` false = a random one is drawn when the match starts.
@export var seed := 0
@export var has_seed := false
## A match of four AIs that the table only watches; seat 0 then plays at `human_seat_level`.
@export var all_ai := false
@export var human_seat_level := 2
## Keep each AI decision's reasons for the debug overlay (the table sets it from Settings).
@export var ai_debug := false
## Least time between asking an AI and its move, so play can be followed by eye; -1 = the
## table's pacing profile (PacingProfile.ai_think_ms).
@export var ai_min_think_ms := -1
## How long one frame may wait for AI answers, in ms (the engine's ai_frame_budget_ms).
@export var ai_frame_budget_ms := 4.0
## The turn clock: -1 = the mode's default (on in matches), 0 = off, 1 = on.
@export_range(-1, 1) var turn_timer := -1
## Overrides the preset's turn time in seconds (-1 = the preset's).
@export var turn_time_limit_s := -1
## Save the match as a replay record (off in tests that must leave no files).
@export var save_record := true
## Continue a saved match: the record name (user://records/<name>.jsonl) to resume at its end;
## "" = a new match.
@export var resume_record := ""
## The card counter (记牌器): -1 = the mode's default (on in training), 0 = off, 1 = on.
@export_range(-1, 1) var card_counter := -1
## The guided first deal: a coach explains each step in the sidebar (help/guided_deal.gd).
@export var guided := false
## Consecutive turn timeouts of the player after which the AI plays for them (auto-play,
## 托管); 0 = never.
@export var auto_play_after_timeouts := 2
## Online: the match is the one the online session's client is in (on a guandan-server); the
## other match options do not apply.
@export var online := false


## A config with these fields set, e.g. `MatchConfig.with({mode = &"match", seed = 5})`; `seed`
## also sets `has_seed`. An unknown field is an error (and is ignored).
static func with(fields: Dictionary) -> MatchConfig:
	var c := MatchConfig.new()
	var known := {}
	for p: Dictionary in c.get_property_list():
		if int(p.usage) & PROPERTY_USAGE_SCRIPT_VARIABLE:
			known[StringName(p.name)] = true
	for key: Variant in fields:
		if not known.has(StringName(key)):
			push_error("MatchConfig: unknown field %s" % key)
			continue
		if key == "ai_levels":
			c.ai_levels.assign(fields[key])
		else:
			c.set(StringName(key), fields[key])
	if fields.has("seed"):
		c.has_seed = true
	return c


## Whether the turn clock runs.
func uses_turn_timer() -> bool:
	return mode == &"match" if turn_timer < 0 else turn_timer == 1


## Whether the card counter is shown.
func uses_card_counter() -> bool:
	return mode == &"training" if card_counter < 0 else card_counter == 1


## The same match again with a fresh seed ("Play again").
func again() -> MatchConfig:
	var c: MatchConfig = duplicate(true)
	c.has_seed = false
	c.resume_record = ""  # a new match, not the continued one again
	return c


## Whether this match, left unfinished, would take the place of the saved one under Continue: a
## new local match whose record is saved (not a resume, not online, not all AI, not the guided
## deal, which is not saved).
func takes_continue_slot() -> bool:
	return not online and not all_ai and save_record and resume_record == ""
