extends GdTestSuite
## A scripted human plays a whole deal at the table against three AIs, only through simulated
## input events: the HINT button (hints must select legal cards), a drag across a run of cards,
## taps, a double tap, the PLAY and PASS buttons and the Enter key.

const Pointer := preload("res://tests_godot/ui/pointer.gd")

var table: Table
var pointer: Pointer


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	pointer = Pointer.new(get_viewport())


func after_each() -> void:
	Settings.reset_for_tests()



func _center(c: Control) -> Vector2:
	return c.get_global_rect().get_center()


func _card_point(id: int) -> Vector2:
	var hand: HandView = table.hand
	return hand.global_position + hand.visible_rect_of(id).get_center()


## Selects `cards` through input: one drag when they sit side by side in the hand, else taps.
## Returns "drag" or "taps".
func _select(cards: PackedInt32Array) -> String:
	var hand: HandView = table.hand
	var order := hand.display_order()
	var idx: Array[int] = []
	for id in cards:
		idx.append(order.find(id))
	idx.sort()
	var contiguous := idx[-1] - idx[0] == idx.size() - 1
	if contiguous and cards.size() >= 2:
		var first := hand.visible_rect_of(order[idx[0]])
		var last := hand.visible_rect_of(order[idx[-1]])
		var y := hand.global_position.y + first.get_center().y
		# From the middle of the first strip to 80 % into the last: both ends are > 40 % covered.
		var from := Vector2(hand.global_position.x + first.get_center().x, y)
		var to := Vector2(hand.global_position.x + last.position.x + last.size.x * 0.8, y)
		pointer.drag(from, to)
		return "drag"
	for id in cards:
		pointer.tap(_card_point(id))  # different cards are > 5 px apart: never a double tap
	return "taps"


func test_a_scripted_human_plays_a_deal_with_input_events() -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 5, ai_min_think_ms = 0, turn_timer = 0, save_record = false,
		rules = "competition"})})
	var panels: Array = []
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: panels.append(e))
	add_child(table)
	await frames(2)  # containers size themselves on the next frame
	var used := {}
	var turns := 0
	while panels.is_empty() and turns < 60:
		var ready := await wait_until(func() -> bool:
			return not panels.is_empty() or (table.is_idle() and table.duty == &"play"))
		if not expect(ready, "my turn comes (or the deal ends)") or not panels.is_empty():
			break
		turns += 1
		var before: PackedInt32Array = table.hand.cards()
		# HINT: the hint must select a legal play (or suggest passing).
		pointer.tap(_center(table.hint_button))
		var hints: Array = table.training.current_hints()
		if not expect(not hints.is_empty(), "hints on my turn"):
			break
		var hint_play: Play = hints[0].play
		var cards := hint_play.cards if hint_play != null else PackedInt32Array()
		if cards.is_empty():
			expect(table.can_pass, "a pass hint only when passing is allowed")
			pointer.tap(_center(table.pass_button))
			used["pass"] = true
		else:
			var sel: PackedInt32Array = table.hand.selected_ids()
			sel.sort()
			var want := cards.duplicate()
			want.sort()
			expect_eq(sel, want, "HINT selects the hinted cards")
			var info: Selection = table.controller.advice.selection(cards)
			expect(info != null and not info.playable.is_empty(), "hinted cards are playable")
			# Select them again by hand, then play in one of several ways.
			table.hand.clear_selection()
			var how := _select(cards)
			var picked: PackedInt32Array = table.hand.selected_ids()
			picked.sort()
			expect_eq(picked, want, "selected by %s" % how)
			used[how] = true
			match turns % 3:
				0:
					pointer.tap(_center(table.play_button))
					used["play button"] = true
				1:
					await sleep(320)
					var last := cards[cards.size() - 1]
					pointer.tap(_card_point(last))  # unselects it …
					pointer.tap(_card_point(last))  # … and the double tap plays (re-selecting it)
					used["double tap"] = true
				2:
					pointer.key(KEY_ENTER)
					used["enter"] = true
		var acted := await wait_until(func() -> bool: return table.duty != &"play" or not panels.is_empty(), 10.0)
		expect(acted, "the action was taken (turn %d)" % turns)
		if not cards.is_empty() and acted:
			for id in cards:
				expect(not (id in table.hand.cards()) or panels.size() > 0, "played card %d left the hand" % id)
			expect(table.hand.cards().size() == before.size() - cards.size() or not panels.is_empty(),
					"hand shrank by the play")
	expect(not panels.is_empty(), "the deal ended")
	for how in ["drag", "play button", "double tap", "enter"]:
		expect(used.has(how), "played at least once with: %s" % how)
