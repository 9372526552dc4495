extends GdTestSuite
## Fireworks on wins (visual brief): a match won by the player's side sets off fireworks with the
## match won's big moment (the end screen waits PacingProfile.fireworks_freeze_s for them, and
## they are still going when it opens); a match lost, a spectator's
## view, low-performance mode and animations off set off none. Every burst opens inside the
## felt, over no seat, chip, the plaque or the moment's name, at 1280×720, 1024×768 and 2340×1080.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var table: Table
var viewport: SubViewport


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", false)


func after_each() -> void:
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 120.0


func _open(at := Vector2i.ZERO) -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = 4, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false})})
	if at == Vector2i.ZERO:
		add_child(table)
	else:
		viewport = SubViewport.new()
		viewport.size = at
		viewport.disable_3d = true
		add_child(viewport)
		viewport.add_child(table)
	await frames(3)
	expect(await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play", 30.0), "my turn")
	table.controller.set_paused(true)
	table.controller.stop()


func _end_match(winner: int) -> void:
	table.last_record = ""
	table.events.enqueue(MatchEvents.from_dict({"signal": &"match_ended", "winner_team": winner, "reason": "ace_won"}))


func test_a_match_won_sets_off_fireworks_that_go_on_behind_the_end_screen() -> void:
	await _open()
	var fireworks: Fireworks = table.moments.fireworks
	_end_match(0)
	expect(await wait_until(func() -> bool: return fireworks.running(), 3.0), "fireworks for the match won")
	expect(fireworks.last.bursts.size() >= 3, "bursts placed: %d" % fireworks.last.bursts.size())
	# The bursts launched while the moment's name shows stay off it.
	var title := table.moments.get_global_transform().affine_inverse() * table.moments.big.title_global_rect()
	expect(title.has_area(), "the match won's name shows")
	for b: Dictionary in fireworks.last.bursts:
		if float(b.launch_s) < PacingProfile.scaled(table.pacing.big_moment_s):
			expect(not Fireworks.ring_box(b.at, b.radius).intersects(title), "an early burst over the name")
	expect(await wait_until(func() -> bool: return table.events.frozen, 3.0), "the flow holds")
	expect(is_equal_approx(table.events.last_freeze_s, PacingProfile.scaled(table.pacing.fireworks_freeze_s)),
		"for the fireworks' freeze (%.2f s)" % table.events.last_freeze_s)
	expect(not table.modal.is_open(), "the end screen waits")
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 8.0), "the end screen")
	expect(fireworks.running(), "still going behind the end screen")
	expect(await wait_until(func() -> bool: return not fireworks.running(), 10.0), "and they end")
	table.modal.panel.visible = false


func test_a_match_lost_sets_off_none() -> void:
	await _open()
	var fireworks: Fireworks = table.moments.fireworks
	_end_match(1)
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 8.0), "the end screen")
	expect(not fireworks.running() and fireworks.last.is_empty(), "no fireworks for a match lost")
	table.modal.panel.visible = false


func test_low_performance_mode_and_animations_off_show_none() -> void:
	await _open()
	Settings.set_value(&"low_perf", true)
	expect_eq(table.fireworks(), 0, "low-performance mode: none")
	expect(not table.moments.fireworks.running(), "nothing drawn")
	Settings.set_value(&"low_perf", false)
	Settings.set_value(&"anim_speed", 0.0)
	expect_eq(table.fireworks(), 0, "animations off: none")
	Settings.set_value(&"anim_speed", 1.0)
	expect(table.fireworks() > 0, "and on again")


func test_bursts_open_on_the_felt_clear_of_the_seats_at_every_size() -> void:
	for s in SIZES:
		await _open(s)
		await frames(2)
		var moments: Moments = table.moments
		var to_moments := moments.get_global_transform().affine_inverse()
		var felt := to_moments * table.oval
		var keep_off: Array[Rect2] = []
		for r in table.word_art_keep_off():
			keep_off.append(to_moments * r)
		expect(keep_off.size() >= 4, "%s: the seats and the plaque to keep clear of" % s)
		var shown := 0
		for round in 4:
			expect(table.fireworks() > 0, "%s: bursts placed" % s)
			for b: Dictionary in moments.fireworks.last.bursts:
				shown += 1
				var at: Vector2 = b.at
				var radius: float = b.radius
				var ring := Fireworks.ring_box(at, radius)
				expect(felt.encloses(ring), "%s: a burst inside the felt (%s in %s)" % [s, ring, felt])
				for r in keep_off:
					expect(not ring.intersects(r), "%s: a burst over %s (%s)" % [s, r, ring])
		expect(shown >= 12, "%s: %d bursts checked" % [s, shown])
		moments.fireworks.clear()
		viewport.queue_free()
		await frames(2)
