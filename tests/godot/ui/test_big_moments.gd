extends GdTestSuite
## Issue 39, item 2: the big moments (a bomb of TableStyle.big_bomb_min_cards or more, a straight
## flush, four jokers, 双下, the match won) take the whole table — the name large across the
## middle, the felt dimmed, the rim swept — and the table's flow holds for the profile's freeze
## (the next event is not shown before it ends; the hand stays locked). A single or a 4-card bomb
## is no big moment; low-performance mode and animations off turn both the effect and the freeze
## off (the word-art stays). The name covers no seat (portrait, name, chip) and not the plaque at
## 1280×720, 1024×768 and 2340×1080 in both languages.

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")
const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var table: Table
var viewport: SubViewport


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", false)


func after_each() -> void:
	Settings.reset_for_tests()
	TranslationServer.set_locale("en")


func timeout_for(_method: StringName) -> float:
	return 120.0


func _training(seed: int) -> MatchConfig:
	return MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = seed, ai_min_think_ms = 0,
		turn_timer = 0, save_record = false})


func _open(at := Vector2i.ZERO) -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = _training(4)})
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


func _ids(n: int) -> PackedInt32Array:
	return FakePlays.ids(table.hand.cards(), n)


func _play(type: String, key: String, n: int, bomb: bool) -> Play:
	return FakePlays.play(table.hand.cards(), type, key, n, bomb)


func _played(seat: int, play: Play) -> MatchEvent:
	return MatchEvents.from_dict({"signal": &"cards_played", "seat": seat, "play": play})


func _freeze_s() -> float:
	return PacingProfile.scaled(table.pacing.big_moment_freeze_s)


func test_four_jokers_take_the_table_and_the_next_event_waits_for_the_freeze() -> void:
	await _open()
	var events: TableEvents = table.events
	var moments: Moments = table.moments
	expect(_freeze_s() > 0.0, "the default profile freezes")
	# What was shown, and whether the table was frozen when it was.
	var shown: Array = []
	table.event_shown.connect(func(e: MatchEvent) -> void: shown.append([e.signal_name, events.frozen]))
	events.enqueue(_played(1, _play("FourKings", "play.four_kings", 4, true)))
	events.enqueue(MatchEvents.from_dict({"signal": &"passed", "seat": 2}))
	expect(await wait_until(func() -> bool: return events.frozen, 3.0), "the table's flow holds")
	expect(moments.big.running(), "the full-table effect plays")
	expect_eq(moments.big.title_shown(), tr("play.four_kings"), "its name across the table")
	expect(await wait_until(func() -> bool: return moments.big.title_alpha() > 0.9, 1.0), "the name shows at full strength")
	expect(moments.big.running(), "while the moment runs")
	var title_at: Rect2 = moments.big.title_global_rect()
	var play_at: Rect2 = table.zone.group_rect(1)
	expect(play_at.has_area() and not title_at.intersects(play_at), "the name %s stays off the play %s" % [title_at, play_at])
	expect_eq(moments.word_shown(), tr("play.four_kings"), "the word shown is the big one")
	expect(is_equal_approx(events.last_freeze_s, _freeze_s()),
		"the freeze is the profile's (%s, %s)" % [events.last_freeze_s, _freeze_s()])
	expect(events._wait_tween != null and events._wait_tween.is_running(), "the queue waits on the freeze")
	expect_eq(shown.map(func(s: Array) -> StringName: return s[0]), [&"cards_played"], "the pass is not shown yet")
	expect(table.hand.locked and not table.is_idle(), "the hand is locked during the freeze")
	expect(await wait_until(func() -> bool: return shown.size() == 2, 6.0), "the pass comes after the freeze")
	expect_eq(shown[1], [&"passed", false], "the pass is shown once the freeze is over")
	# The play's cards rose for the moment and settled back.
	expect(await wait_until(func() -> bool: return not moments.big.running(), 3.0), "the moment ends")
	expect_eq(moments.big.title_shown(), "", "its name is gone")


func test_a_straight_flush_and_a_big_bomb_are_big_moments_a_single_and_a_4_card_bomb_are_not() -> void:
	await _open()
	var events: TableEvents = table.events
	var moments: Moments = table.moments
	var st := TableStyle.current()
	expect_eq(st.big_bomb_min_cards, 6, "the default threshold")
	expect_eq(Moments.big_kind(_play("StraightFlush", "play.straight_flush", 5, true)), &"straight_flush", "straight flush")
	expect_eq(Moments.big_kind(_play("FourKings", "play.four_kings", 4, true)), &"four_jokers", "four jokers")
	expect_eq(Moments.big_kind(_play("Bomb", "play.bomb", 6, true)), &"big_bomb", "a 6-card bomb")
	expect_eq(Moments.big_kind(_play("Bomb", "play.bomb", 5, true)), &"", "a 5-card bomb")
	expect_eq(Moments.big_kind(_play("Bomb", "play.bomb", 4, true)), &"", "a 4-card bomb")
	expect_eq(Moments.big_kind(_play("Single", "play.single", 1, false)), &"", "a single")
	expect_eq(Moments.big_kind(_play("Straight", "play.straight", 5, false)), &"", "a straight is no bomb")
	# The designers' threshold decides.
	st.big_bomb_min_cards = 5
	expect_eq(Moments.big_kind(_play("Bomb", "play.bomb", 5, true)), &"big_bomb", "a 5-card bomb at threshold 5")
	st.big_bomb_min_cards = 6
	# A straight flush through the table's handler: the effect and the freeze.
	events.last_freeze_s = -1.0
	events.tricks.on_cards_played(_played(1, _play("StraightFlush", "play.straight_flush", 5, true)))
	expect(await wait_until(func() -> bool: return events.frozen, 3.0), "a straight flush freezes the flow")
	expect(moments.big.running(), "and takes the table")
	expect_eq(moments.big.title_shown(), tr("play.straight_flush"), "named across the table")
	expect(is_equal_approx(events.last_freeze_s, _freeze_s()), "for the profile's freeze")
	expect(await wait_until(func() -> bool: return not events.frozen and not moments.big.running(), 6.0), "it ends")
	# A 4-card bomb and a single: no big moment, no freeze.
	for play in [_play("Bomb", "play.bomb", 4, true), _play("Single", "play.single", 1, false)]:
		events.last_freeze_s = -1.0
		await events.tricks.on_cards_played(_played(3, play))
		expect_eq(table.zone.shown(3).size(), play.size, "%s landed" % play.kind)
		expect(not moments.big.running(), "%s: no full-table effect" % play.kind)
		expect_eq(moments.freeze_s, 0.0, "%s: no freeze asked" % play.kind)
		expect_eq(events.last_freeze_s, -1.0, "%s: the queue never froze" % play.kind)
		expect(not events.frozen, "%s: not frozen" % play.kind)


func test_low_performance_mode_and_animations_off_turn_effect_and_freeze_off() -> void:
	await _open()
	var events: TableEvents = table.events
	var moments: Moments = table.moments
	Settings.set_value(&"low_perf", true)
	events.last_freeze_s = -1.0
	events.tricks.on_cards_played(_played(1, _play("FourKings", "play.four_kings", 4, true)))
	expect(await wait_until(func() -> bool: return moments.word_shown() != "", 3.0), "the word-art stays")
	expect_eq(moments.word_shown(), tr("play.four_kings"), "four jokers name themselves")
	expect_eq(moments.big.title_shown(), "", "not across the table")
	expect(not moments.big.running(), "low performance: no full-table effect")
	expect_eq(moments.freeze_s, 0.0, "low performance: no freeze asked")
	expect_eq(table.big_moment("x"), 0.0, "low performance: no moment without a play either")
	await wait_until(func() -> bool: return table.is_idle(), 5.0)
	expect_eq(events.last_freeze_s, -1.0, "low performance: the queue never froze")
	Settings.set_value(&"low_perf", false)
	Settings.set_value(&"anim_speed", 0.0)
	expect(not BigMoment.wanted(), "animations off: no big moments")
	events.tricks.on_cards_played(_played(3, _play("StraightFlush", "play.straight_flush", 5, true)))
	await frames(2)
	expect(not moments.big.running(), "animations off: no full-table effect")
	expect_eq(events.last_freeze_s, -1.0, "animations off: no freeze")
	expect_eq(table.big_moment("x"), 0.0, "animations off: no moment without a play either")


func test_double_down_and_the_match_won_are_big_moments() -> void:
	await _open()
	var events: TableEvents = table.events
	var big: BigMoment = table.moments.big
	table.controller.set_paused(true)
	table.controller.stop()
	# South and North (seats 0 and 2) go out first and second: 双下.
	events.enqueue(MatchEvents.from_dict({"signal": &"deal_ended", "order": PackedInt32Array([2, 0, 1, 3]),
		"level_changes": LevelChange.of(0, PackedInt32Array([2, 2]), PackedInt32Array([5, 2]))}))
	expect(await wait_until(func() -> bool: return events.frozen, 3.0), "双下 freezes the flow")
	expect_eq(big.title_shown(), tr("DOUBLE_DOWN_BANNER"), "双下 across the table")
	expect(is_equal_approx(events.last_freeze_s, _freeze_s()), "for the profile's freeze")
	expect(not table.modal.is_open(), "the next-deal buttons wait for the freeze")
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 8.0), "then the next-deal buttons")
	table.modal.press(&"next")
	await wait_until(func() -> bool: return not events.busy(), 3.0)
	# A deal won without 双下: no big moment.
	events.last_freeze_s = -1.0
	events.enqueue(MatchEvents.from_dict({"signal": &"deal_ended", "order": PackedInt32Array([2, 1, 0, 3]),
		"level_changes": LevelChange.of(0, PackedInt32Array([5, 2]), PackedInt32Array([6, 2]))}))
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 8.0), "the next-deal buttons")
	expect_eq(events.last_freeze_s, -1.0, "no 双下, no freeze")
	table.modal.press(&"next")
	await wait_until(func() -> bool: return not events.busy(), 3.0)
	# The match won by the player's team.
	table.last_record = ""
	events.enqueue(MatchEvents.from_dict({"signal": &"match_ended", "winner_team": 0, "reason": "ace_won"}))
	expect(await wait_until(func() -> bool: return events.frozen, 3.0), "the match won freezes the flow")
	expect_eq(big.title_shown(), tr("MOMENT_MATCH_WON"), "the match won across the table")
	expect(not table.modal.is_open(), "the end-of-match panel waits for the freeze")
	expect(await wait_until(func() -> bool: return table.modal.is_open(), 8.0), "then the panel")
	table.modal.panel.visible = false  # the test ends here; the panel's menu button would leave the screen


## The name across the table covers no seat and not the plaque, at every size, in both languages,
## for the longest names there are.
func test_the_name_covers_no_seat_and_not_the_plaque_at_every_size() -> void:
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		await _open(SIZES[0])
		for s in SIZES:
			viewport.size = s
			await frames(3)
			for title in [tr("play.four_kings"), tr("play.straight_flush"), tr("DOUBLE_DOWN_BANNER"), tr("MOMENT_MATCH_WON"),
					tr("MOMENT_MATCH_WON_BY_FMT").format({team = Wording.team(0, true)})]:
				var where := "%s %dx%d %s" % [locale, s.x, s.y, title]
				expect(table.big_moment(title) > 0.0, "%s: shown" % where)
				var r: Rect2 = table.moments.big.title_global_rect()
				expect(r.has_area(), "%s: a name" % where)
				expect(Rect2(Vector2.ZERO, Vector2(s)).encloses(r), "%s: %s inside the window" % [where, r])
				var plaque: Control = table.plaque
				expect(not r.intersects(plaque.get_global_rect()), "%s: %s covers the plaque %s" % [where, r, plaque.get_global_rect()])
				for seat in 4:
					var badge: SeatBadge = table.badges[seat]
					if badge.is_visible_in_tree():
						expect(not r.intersects(badge.seat_rect()), "%s: %s covers seat %d %s" % [where, r, seat, badge.seat_rect()])
				# Large: at least the word-art's size, centred on the felt.
				var fs := (table.moments.big.get_node(^"Title") as Label).get_theme_font_size(&"font_size")
				expect(fs >= TableStyle.current().word_art_font_size, "%s: large (%d)" % [where, fs])
				var off: float = absf(r.get_center().x - (table.oval as Rect2).get_center().x)
				expect(off < 2.0, "%s: centred across the table (%.0f px off)" % [where, off])
				table.moments.big.clear()
		viewport.queue_free()
		await frames(2)


## The light round the rim passes behind the seats and the top bar (issue 39: it crossed the side
## portraits), at every size; the oval itself does run under them, so the check has teeth.
func test_the_rim_light_passes_behind_the_seats_at_every_size() -> void:
	await _open(SIZES[0])
	var big: BigMoment = table.moments.big
	for s in SIZES:
		viewport.size = s
		await frames(3)
		var where := "%dx%d" % [s.x, s.y]
		var covers: Array[Rect2] = [table.top_bar.get_global_rect()]
		for seat in 4:
			var badge: SeatBadge = table.badges[seat]
			if badge.is_visible_in_tree():
				covers.append(badge.seat_rect())
		var oval: Rect2 = table.oval
		var crossed := false
		for k in 360:
			var a := TAU * k / 360.0
			var p := oval.get_center() + Vector2(cos(a), sin(a)) * oval.size / 2.0
			for r in covers:
				crossed = crossed or r.has_point(p)
		expect(crossed, "%s: the rim runs under a seat or the bar (else this check proves nothing)" % where)
		expect(table.big_moment(tr("DOUBLE_DOWN_BANNER")) > 0.0, "%s: shown" % where)
		var to_global := big.get_global_transform()
		var points := 0
		for step in 21:
			for piece in big.sweep(step / 20.0):
				for p: Vector2 in piece.points:
					points += 1
					var g := to_global * p
					for r in covers:
						expect(not r.has_point(g), "%s t=%.2f: the light at %s crosses %s" % [where, step / 20.0, g, r])
		expect(points > 100, "%s: the light is drawn (%d points)" % [where, points])
		big.clear()
	viewport.queue_free()
	await frames(2)


## While the name stands across the table the status line ("Your turn…") fades out under it, and
## comes back after.
func test_the_status_line_makes_way_for_the_name() -> void:
	await _open()
	var big: BigMoment = table.moments.big
	var status: Label = table.status
	expect(status.is_visible_in_tree() and status.text != "", "a status line to begin with")
	expect(table.big_moment(tr("DOUBLE_DOWN_BANNER")) > 0.0, "shown")
	expect(await wait_until(func() -> bool: return status.modulate.a < 0.05, 3.0), "the status fades out (%.2f)" % status.modulate.a)
	expect(big.running(), "while the name shows")
	expect(await wait_until(func() -> bool: return not big.running(), 5.0), "the moment ends")
	expect_eq(status.modulate.a, 1.0, "the status is back")
	table.big_moment(tr("DOUBLE_DOWN_BANNER"))
	await frames(2)
	big.clear()
	expect_eq(status.modulate.a, 1.0, "a moment cleared early gives the status back too")
