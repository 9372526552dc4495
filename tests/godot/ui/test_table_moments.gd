extends GdTestSuite
## The table's hierarchy (issue 27): the level plaque shows both teams' levels, the level played
## and the wild, and fits the top bar at every layout size in both languages; the action buttons
## are there only on the player's move; the waiting hand is never greyed but sinks; a play names
## itself and a bomb's effect grows with it (low-performance mode: the word only).

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")
const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080), Vector2i(1560, 720)]

var table: Table
var viewport: SubViewport


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()
	TranslationServer.set_locale("en")


func timeout_for(_method: StringName) -> float:
	return 120.0


func _training(seed: int, think_ms := 0) -> MatchConfig:
	return MatchConfig.with({mode = &"training", ai_levels = [1, 1, 1], seed = seed, ai_min_think_ms = think_ms,
		turn_timer = 0, save_record = false})


func _open(config: MatchConfig) -> void:
	table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	add_child(table)
	await frames(3)


func _open_at(config: MatchConfig, at: Vector2i) -> void:
	viewport = SubViewport.new()
	viewport.size = at
	viewport.disable_3d = true
	add_child(viewport)
	table = load("res://table/table.tscn").instantiate()
	table.open({config = config})
	viewport.add_child(table)
	await frames(3)


func _my_move() -> bool:
	return await wait_until(func() -> bool: return table.is_idle() and table.duty == &"play", 30.0)


# --- the level plaque -------------------------------------------------------------------------------

func test_the_plaque_shows_both_levels_the_level_played_and_the_wild() -> void:
	await _open(_training(3))
	expect(await _my_move(), "my turn")
	var plaque: LevelPlaque = table.plaque
	expect(plaque.is_visible_in_tree(), "the plaque is on the table")
	expect(not (table.get_node("%Levels") as Label).visible, "the old corner text is gone")
	expect_eq(plaque.shown(), {us = "Us 2", them = "Them 2", playing = "2", wild = "♥2"}, "first deal")
	# A level change (what deal_ended / deal_started do): Us up to 5, them at 3, playing 5.
	table.team_levels = PackedInt32Array([5, 3])
	table.level = 5
	table.update_top_bar()
	expect_eq(plaque.shown(), {us = "Us 5", them = "Them 3", playing = "5", wild = "♥5"}, "after a level change")
	table.team_levels = PackedInt32Array([13, 14])
	table.level = 14
	table.update_top_bar()
	expect_eq(plaque.shown(), {us = "Us K", them = "Them A", playing = "A", wild = "♥A"}, "court levels")
	TranslationServer.set_locale("zh_CN")
	await frames(2)
	expect_eq(plaque.shown(), {us = "我方 K", them = "对方 A", playing = "A", wild = "♥A"}, "in Chinese")
	var colours := plaque.tile_colors()
	expect_eq(colours[0], TableStyle.current().team_us_color, "our tile in our colour")
	expect_eq(colours[1], TableStyle.current().team_them_color, "their tile in theirs")


func test_the_plaque_fits_the_top_bar_at_every_size_in_both_languages() -> void:
	for locale in ["en", "zh_CN"]:
		TranslationServer.set_locale(locale)
		# Training has the most top-bar buttons (heat map, auto-play, history).
		await _open_at(_training(2), SIZES[0])
		for s in SIZES:
			viewport.size = s
			await frames(3)
			var where := "%s at %dx%d" % [locale, s.x, s.y]
			var plaque: LevelPlaque = table.plaque
			var bar: Control = table.top_bar
			var pr := plaque.get_global_rect()
			expect(plaque.is_visible_in_tree() and pr.size.x > 0.0, "%s: the plaque is shown" % where)
			expect(bar.get_global_rect().grow(1.0).encloses(pr), "%s: plaque %s inside the top bar %s" % [where, pr, bar.get_global_rect()])
			expect(bar.get_combined_minimum_size().y <= bar.size.y + 0.5,
				"%s: the plaque does not make the top bar taller (%s > %s)" % [where, bar.get_combined_minimum_size().y, bar.size.y])
			expect(pr.size.x + 0.5 >= plaque.get_combined_minimum_size().x, "%s: the plaque is not squeezed" % where)
			for c: Control in bar.get_children():
				if c != plaque and c.is_visible_in_tree() and c.mouse_filter != Control.MOUSE_FILTER_IGNORE:
					expect(not pr.grow(-1.0).intersects(c.get_global_rect().grow(-1.0)),
						"%s: plaque overlaps %s" % [where, c.name])
			var others: Array[Control] = [table.counter_view, table.sidebar]
			others.append_array(table.badges)
			for c: Control in others:
				if c.is_visible_in_tree():
					expect(not pr.intersects(c.get_global_rect()), "%s: plaque overlaps %s" % [where, c.name])
			# Centred within a tenth of the width (the bar's buttons are not symmetric).
			var off := absf(pr.get_center().x - bar.get_global_rect().get_center().x)
			expect(off < bar.size.x * 0.2, "%s: the plaque is near the top centre (%.0f px off)" % [where, off])
		viewport.queue_free()
		await frames(2)


# --- one obvious action -------------------------------------------------------------------------------

func test_the_actions_show_only_on_my_move_and_the_waiting_hand_sinks_never_grey() -> void:
	await _open(_training(6, 700))
	expect(await _my_move(), "my turn")
	var hand: HandView = table.hand
	expect(table.play_button.is_visible_in_tree(), "Play on my move")
	expect_eq(table.pass_button.is_visible_in_tree(), table.can_pass, "Pass when I may pass")
	expect(table.play_button.size.x > table.pass_button.size.x * 1.2 or not table.pass_button.visible,
		"Play is the widest")
	expect(not hand.waiting, "the hand is up on my move")
	var id: int = hand.display_order()[3]
	var view: CardView = table.layer.find_view(id)
	var up_y := view.global_position.y
	# Play my lowest card (or pass): the others' turns follow.
	if table.can_pass:
		table._on_pass_pressed()
	else:
		hand.set_selected(PackedInt32Array([hand.display_order()[0]]))
		table.play_selection(-1)
	expect(await wait_until(func() -> bool: return hand.waiting and table.is_idle(), 20.0), "the others' turn")
	expect(not table.play_button.is_visible_in_tree(), "no Play while others play")
	expect(not table.pass_button.is_visible_in_tree(), "no Pass while others play")
	expect(not table.hint_button.is_visible_in_tree(), "no Hint while others play")
	expect(table.sort_button.is_visible_in_tree(), "Sort stays (a hand tool)")
	for cid in hand.cards():
		var v: CardView = table.layer.find_view(cid)
		expect(not v.dimmed and v.modulate == Color.WHITE and v.self_modulate == Color.WHITE,
			"card %d is not greyed while waiting" % cid)
	if id in hand.cards():
		var drop := TableStyle.current().waiting_hand_drop
		expect(drop > 0.0, "the style drops the waiting hand")
		expect(is_equal_approx(view.global_position.y, up_y + drop),
			"the waiting hand sinks by %s (%s -> %s)" % [drop, up_y, view.global_position.y])
	expect(await _my_move(), "my turn again")
	expect(table.play_button.is_visible_in_tree(), "Play is back")
	# A selected card keeps its lift over the hand's resting line.
	var sel: int = hand.display_order()[1]
	hand.set_selected(PackedInt32Array([sel]))
	expect_eq(hand.card_offset(sel), HandView.lift(), "a selected card keeps its lift")


# --- moments -----------------------------------------------------------------------------------------

func _ids(n: int) -> PackedInt32Array:
	return FakePlays.ids(table.hand.cards(), n)


func _play(type: String, key: String, n: int, bomb: bool) -> Play:
	return FakePlays.play(table.hand.cards(), type, key, n, bomb)


func test_a_bomb_names_itself_and_its_effect_grows_with_it() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", false)
	await _open(_training(4))
	expect(await _my_move(), "my turn")
	var moments: Moments = table.moments
	# Through the table's event: seat 1 bombs with six cards.
	table.events.tricks.on_cards_played(MatchEvents.from_dict({"signal": &"cards_played", "seat": 1, "play": _play("Bomb", "play.bomb", 6, true)}))
	expect(await wait_until(func() -> bool: return moments.word_shown() != "", 2.0), "a word when the bomb lands")
	expect_eq(moments.word_shown(), tr("play.bomb"), "the bomb names itself")
	expect(moments.effect_running(), "the bomb's effect plays")
	expect(bool(moments.last_effect.flash) and bool(moments.last_effect.shockwave), "flash and shockwave")
	expect(int(moments.last_effect.particles) > 0, "sparks")
	var st := TableStyle.current()
	expect_eq(float(moments.last_effect.shake), st.shake_px + 2.0 * st.shake_per_card_px, "a 6-card bomb's shake")
	expect(table.events._shake_tween != null and table.events._shake_tween.is_running(), "the table shakes")
	# Bigger bombs hit harder; a straight flush harder than a plain bomb of five; four jokers burst.
	var slot := Rect2(300, 200, 200, 80)
	var s4 := moments.on_play(_play("Bomb", "play.bomb", 4, true), slot)
	var p4 := int(moments.last_effect.particles)
	var s8 := moments.on_play(_play("Bomb", "play.bomb", 8, true), slot)
	var p8 := int(moments.last_effect.particles)
	expect(s8 > s4 and p8 > p4, "an 8-card bomb (%s, %d) beats a 4-card one (%s, %d)" % [s8, p8, s4, p4])
	var s5 := moments.on_play(_play("Bomb", "play.bomb", 5, true), slot)
	var sf := moments.on_play(_play("StraightFlush", "play.straight_flush", 5, true), slot)
	expect(sf > s5, "a straight flush shakes harder than a 5-card bomb (%s > %s)" % [sf, s5])
	expect_eq(moments.word_shown(), tr("play.straight_flush"), "and names itself")
	expect(not bool(moments.last_effect.burst), "no gold burst for a straight flush")
	var sk := moments.on_play(_play("FourKings", "play.four_kings", 4, true), slot)
	expect(bool(moments.last_effect.burst), "four jokers: a gold burst")
	expect(sk >= sf, "four jokers shake the most")
	# A straight names itself without an effect; a single stays quiet.
	moments.clear()
	expect_eq(moments.on_play(_play("Straight", "play.straight", 5, false), slot), 0.0, "no shake for a straight")
	expect_eq(moments.word_shown(), tr("play.straight"), "a straight names itself")
	expect(not moments.effect_running(), "no effect for a straight")
	moments.clear()
	moments.on_play(_play("Single", "play.single", 1, false), slot)
	expect_eq(moments.word_shown(), "", "a single stays quiet")
	# The word fades after about word_art_s.
	moments.on_play(_play("Straight", "play.straight", 5, false), slot)
	expect(await wait_until(func() -> bool: return moments.word_shown() == "", 3.0), "the word fades")


func test_low_performance_mode_keeps_only_the_word() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", true)
	await _open(_training(4))
	expect(await _my_move(), "my turn")
	var moments: Moments = table.moments
	var frame_at: Vector2 = table.frame.position
	table.events.tricks.on_cards_played(MatchEvents.from_dict({"signal": &"cards_played", "seat": 1, "play": _play("Bomb", "play.bomb", 7, true)}))
	expect(await wait_until(func() -> bool: return moments.word_shown() != "", 2.0), "a word when the bomb lands")
	expect_eq(moments.word_shown(), tr("play.bomb"), "the word stays")
	expect(not moments.effect_running(), "no flash or shockwave")
	expect(not bool(moments.last_effect.flash) and int(moments.last_effect.particles) == 0, "no effect at all")
	expect(table.events._shake_tween == null or not table.events._shake_tween.is_running(), "no shake")
	expect_eq(table.frame.position, frame_at, "the table stays still")
