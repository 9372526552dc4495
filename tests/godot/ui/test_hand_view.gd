extends GdTestSuite
## The hand (hand/hand_view.gd) with real input events: layout (sorted, fanned with 50–65 %
## overlap, centred, 28 cards visible), tap / Ctrl-click / drag with the 40 % rule / double tap
## / long press, the input lock, the grouping view and manual groups, and the card pool.

const Pointer := preload("res://tests_godot/ui/pointer.gd")

var root: Control
var layer: CardLayer
var hand: HandView
var pointer: Pointer


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	root = Control.new()
	root.size = Vector2(1280, 720)
	add_child(root)
	hand = HandView.new()
	root.add_child(hand)
	hand.position = Vector2(0, 500)
	hand.size = Vector2(1280, 220)
	layer = CardLayer.new()
	layer.size = root.size
	root.add_child(layer)
	hand.layer = layer
	hand.card_height = 170
	pointer = Pointer.new(get_viewport())


func after_each() -> void:
	Settings.reset_for_tests()



## 27 cards from the two decks, mixed.
func _deal27() -> PackedInt32Array:
	var ids := PackedInt32Array()
	for i in 27:
		ids.append((i * 37 + 5) % 108)
	return ids


## Global centre of a card's visible strip.
func _center_of(id: int) -> Vector2:
	var r := hand.visible_rect_of(id)
	return hand.global_position + r.get_center()


func test_sorted_centred_and_overlapping() -> void:
	hand.set_level(5)
	hand.set_cards(_deal27())
	var order := hand.display_order()
	expect_eq(order, Cards.sorted(_deal27(), 5), "sorted by rank then suit")
	var cw := hand.card_size().x
	var first := hand.slot_of(order[0])
	var last := hand.slot_of(order[-1])
	var step := hand.slot_of(order[1]).position.x - first.position.x
	expect(step >= cw * 0.35 - 0.01 and step <= cw * 0.5 + 0.01, "overlap 50–65 %% (step %.1f of %.1f)" % [step, cw])
	var left := first.position.x
	var right := hand.size.x - last.end.x
	expect(absf(left - right) < 1.0, "centred (%.1f vs %.1f)" % [left, right])
	for id in order:
		var r := hand.slot_of(id)
		expect(r.position.x >= 0.0 and r.end.x <= hand.size.x, "card %d inside the hand" % id)


func test_many_cards_shrink_to_stay_visible() -> void:
	hand.size = Vector2(760, 220)
	var ids := _deal27()
	ids.append(107)  # 28 after tribute
	hand.set_cards(ids)
	expect(hand.card_size().y < 170.0, "cards shrink above 20")
	for id in ids:
		var r := hand.slot_of(id)
		expect(r.position.x >= 0.0 and r.end.x <= hand.size.x + 0.01, "card %d visible" % id)
		expect(hand.visible_rect_of(id).size.x > 8.0, "card %d keeps a visible strip" % id)
	var few := PackedInt32Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
	hand.set_cards(few)
	expect(is_equal_approx(hand.card_size().y, 170.0), "20 or fewer keep full size")


func test_selected_cards_lift_20_px() -> void:
	hand.set_cards(_deal27())
	var id := hand.display_order()[4]
	var before := layer.find_view(id).position.y
	pointer.tap(_center_of(id))
	expect_eq(hand.selected_ids(), PackedInt32Array([id]))
	expect(is_equal_approx(before - layer.find_view(id).position.y, 20.0), "lifted by 20 px")


func test_tap_toggles_and_ctrl_click_adds() -> void:
	hand.set_cards(_deal27())
	var order := hand.display_order()
	pointer.tap(_center_of(order[2]))
	pointer.tap(_center_of(order[5]))
	expect_eq(hand.selected_ids(), PackedInt32Array([order[2], order[5]]))
	pointer.tap(_center_of(order[2]), true)  # Ctrl-click on a selected card keeps it
	expect_eq(hand.selected_ids(), PackedInt32Array([order[2], order[5]]))
	await sleep(350)  # not a double tap
	pointer.tap(_center_of(order[2]))
	expect_eq(hand.selected_ids(), PackedInt32Array([order[5]]), "a plain tap toggles off")


func test_drag_selects_a_run_with_the_40_percent_rule() -> void:
	hand.set_cards(_deal27())
	var order := hand.display_order()
	var start := _center_of(order[3])
	var end_strip := hand.visible_rect_of(order[9])
	# 35 % into card 9's strip: 3..8 only.
	var end := hand.global_position + Vector2(end_strip.position.x + end_strip.size.x * 0.35, end_strip.get_center().y)
	pointer.drag(start, end)
	expect_eq(hand.selected_ids(), order.slice(3, 9))
	hand.clear_selection()
	end.x = hand.global_position.x + end_strip.position.x + end_strip.size.x * 0.45
	pointer.drag(start, end)
	expect_eq(hand.selected_ids(), order.slice(3, 10), "45 % takes card 9")


func test_drag_from_a_selected_card_unselects_the_run() -> void:
	hand.set_cards(_deal27())
	var order := hand.display_order()
	hand.set_selected(order.slice(0, 8))
	pointer.drag(_center_of(order[2]), _center_of(order[5]))
	expect_eq(hand.selected_ids(), PackedInt32Array([order[0], order[1], order[6], order[7]]))


func test_double_tap_plays_and_long_press_groups() -> void:
	hand.set_cards(_deal27())
	var order := hand.display_order()
	var played := [0]
	hand.play_requested.connect(func() -> void: played[0] += 1)
	var grouping: Array = []
	hand.grouping_requested.connect(func(at: Vector2) -> void: grouping.append(at))
	pointer.double_tap(_center_of(order[7]))
	expect_eq(played[0], 1, "double tap asks to play")
	expect_eq(hand.selected_ids(), PackedInt32Array([order[7]]), "the card stays selected")
	await sleep(350)
	pointer.press(_center_of(order[12]))
	await sleep(600)
	pointer.release(_center_of(order[12]))
	expect_eq(grouping.size(), 1, "long press opens grouping")
	expect(not (order[12] in hand.selected_ids()), "a long press does not toggle")
	# Moving more than 5 px cancels the long press.
	pointer.press(_center_of(order[15]))
	pointer.move(_center_of(order[15]) + Vector2(7, 0))
	await sleep(600)
	pointer.release(_center_of(order[15]) + Vector2(7, 0))
	expect_eq(grouping.size(), 1, "no long press after moving")


func test_locked_hand_ignores_input() -> void:
	hand.set_cards(_deal27())
	hand.locked = true
	pointer.tap(_center_of(hand.display_order()[3]))
	expect(hand.selected_ids().is_empty())


func test_group_view_and_manual_groups() -> void:
	var ids := Cards.from_notation("S3 H3 C3 D3 S9 H9 SK SA D5 C6 H7 S8 DQ")
	hand.set_cards(ids)
	hand.group_view = true
	var order := hand.display_order()
	expect_eq(Cards.notation_list(order.slice(0, 4)), "S3 H3 C3 D3", "bomb first")
	hand.set_selected(Cards.from_notation("SK SA"))
	expect(hand.group_selection() >= 0)
	expect_eq(Cards.notation_list(hand.display_order().slice(0, 2)), "SK SA", "manual group first")
	expect(layer.find_view(ids[6]).group_color.a > 0.0, "grouped cards share a colour")
	hand.ungroup()
	expect(hand.manual_groups().is_empty())
	# A full hand in many clusters still fits.
	hand.set_cards(_deal27())
	hand.set_selected(hand.display_order().slice(0, 2))
	hand.group_selection()
	for id in hand.cards():
		var r := hand.slot_of(id)
		expect(r.position.x >= 0.0 and r.end.x <= hand.size.x + 0.01, "grouped card %d inside the hand" % id)


func test_pool_reuses_card_nodes() -> void:
	hand.set_cards(_deal27())
	var created := layer.created_count
	var nodes := Performance.get_monitor(Performance.OBJECT_NODE_COUNT)
	for deal in 3:
		hand.clear()
		var ids := PackedInt32Array()
		for i in 27:
			ids.append((i * 11 + deal * 29) % 108)
		hand.set_cards(ids)
	expect(layer.created_count <= 108)
	expect_eq(Performance.get_monitor(Performance.OBJECT_NODE_COUNT), nodes + (layer.created_count - created),
			"only the pool grows")
	expect(layer.created_count - created <= 27, "new nodes only for ids never shown before")


## The AI played for the player (cards leave: the rest grow, easing from their old size) while
## the player's selection changed: the selection's lift took over the cards' tween and their
## growth stopped half-way, leaving cards of mixed sizes overlapping (issue 24 item 3).
func test_a_selection_change_mid_relayout_leaves_every_card_its_size() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	hand.set_cards(_deal27())
	var order := hand.display_order()
	hand.set_selected(PackedInt32Array([order[10], order[11]]))
	await sleep(300)
	var gone := PackedInt32Array([order[0], order[1], order[2], order[3]])
	for v in hand.detach(gone):
		layer.release(v.card_id)
	hand.clear_selection()
	await sleep(600)
	var size := hand.card_size()
	for id in hand.cards():
		var v := layer.find_view(id)
		expect(v.scale.is_equal_approx(Vector2.ONE) and v.size.is_equal_approx(size),
			"card %d drawn at %s × %s (the hand's size %s)" % [id, v.size, v.scale, size])
