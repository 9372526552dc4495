extends GdTestSuite
## The ends of issue 54 at the table: a whole scripted match (four AI seats), each deal's end a
## ceremony card on the felt and the match's end a screen over the table. The medals the screen
## shows per player are the finishing orders of the deals played; Review emits its typed signal
## (the deal's number, or the whole match); both ends at 1280x720, 1024x768 and 2340x1080 in both
## languages stay inside the window with nothing overlapping nothing.

const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var _problems: Array[String] = []


## A whole match may take up to the loop's own two minutes.
func timeout_for(_method: StringName) -> float:
	return 170.0


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	_problems.clear()


func after_each() -> void:
	Settings.reset_for_tests()


static func _viewport(px: Vector2i) -> SubViewport:
	return preload("res://tests_godot/ui/test_menu_layout.gd").stretched_viewport(px)


func _resize(vp: SubViewport, px: Vector2i) -> void:
	var fresh := _viewport(px)
	vp.size = fresh.size
	vp.size_2d_override = fresh.size_2d_override
	fresh.free()
	await frames(3)


func test_a_match_s_ends_show_its_medals_and_ask_for_review() -> void:
	Settings.set_value(&"locale", "en")
	var vp := _viewport(SIZES[0])
	add_child(vp)
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({mode = &"training", all_ai = true, ai_levels = [1, 1, 1], human_seat_level = 1,
		seed = 5, ai_min_think_ms = 0, turn_timer = 0, save_record = false, rules = "competition"})})
	var deals: Array[DealEndedEvent] = []
	var ended: Array[MatchEndedEvent] = []
	var deal_reviews: Array[int] = []
	var match_reviews := [0]
	table.deal_panel_shown.connect(func(e: DealEndedEvent) -> void: deals.append(e))
	table.match_panel_shown.connect(func(e: MatchEndedEvent) -> void: ended.append(e))
	table.review_requested_deal.connect(func(n: int) -> void: deal_reviews.append(n))
	table.review_requested.connect(func() -> void: match_reviews[0] += 1)
	vp.add_child(table)
	var modal: Modal = table.modal
	var deadline := Time.get_ticks_msec() + 150000
	var checked_ceremony := false
	while ended.is_empty() and Time.get_ticks_msec() < deadline:
		await frames(1)
		if not modal.is_open() or table.match_over:
			continue
		if deals.size() == 2 and not checked_ceremony:
			checked_ceremony = true
			# The second deal's Review: its number (1, 0-based), then the card stands again
			# without it and Next deal goes on.
			expect(modal.button(&"review") != null, "offline, the ceremony offers Review")
			modal.press(&"review")
			await frames(2)
			expect_eq(deal_reviews, [1] as Array[int], "Review asked for deal 1 (the second)")
			expect(modal.is_open() and modal.button(&"next") != null and modal.button(&"review") == null,
				"the ceremony stands again, Next deal without Review")
			await _check_ceremony(vp, table, deals[1])
		modal.press(&"next")
	if not expect(not ended.is_empty(), "the match ended (after %d deals)" % deals.size()):
		vp.queue_free()
		return
	await frames(2)
	var results: ResultEvents = table.events.results
	var panel := results.end_panel
	if not expect(panel != null and modal.is_open(), "the end screen is up"):
		vp.queue_free()
		return
	# The medals per player: counted here from the deal-end events the ceremony showed.
	for seat in 4:
		var want := PackedInt32Array([0, 0, 0, 0])
		for d in deals:
			for place in d.order.size():
				if d.order[place] == seat:
					want[place] += 1
		expect_eq(panel.medals_shown(seat), want, "seat %d's medals over %d deals" % [seat, deals.size()])
	var figures := panel.find_child("Deals", true, false)
	expect_eq((figures.get_node(^"Value") as Label).text, str(deals.size()), "the deals figure")
	# Review on the match's end: the signal, and the screen stands again.
	modal.press(&"review")
	await frames(2)
	expect_eq(match_reviews[0], 1, "Review asked for the whole match")
	expect(modal.is_open() and results.end_panel != null and modal.button(&"again") != null, "the end screen stands again")
	# The end screen at every size, in both languages (opened again in each).
	var buttons: Array = [[&"again", "BTN_PLAY_AGAIN"], [&"review", "BTN_REVIEW"], [&"menu", "BTN_MENU"]]
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		results.open_match_screen(ended[0], tr("MATCH_WON"), buttons)
		results.end_panel.show_rating(1226, 24, true)
		for px in SIZES:
			await _resize(vp, px)
			await frames(2)
			_check_inside_and_apart(modal, table, "end screen %s %dx%d" % [locale, px.x, px.y])
	expect_eq(_problems, [] as Array[String], "the ends' layout")
	vp.queue_free()
	await frames(2)


## The ceremony card at every size in both languages (opened again for each language).
func _check_ceremony(vp: SubViewport, table: Table, e: DealEndedEvent) -> void:
	var results: ResultEvents = table.events.results
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		results.open_ceremony(e, 1, [[&"next", "BTN_NEXT_DEAL"], [&"review", "BTN_REVIEW"]])
		var card := table.modal.find_child("DealCeremonyCard", true, false)
		expect(card != null and card.is_visible_in_tree(), "%s: the ceremony card is up" % locale)
		var medals: Array[String] = []
		for i in e.order.size():
			medals.append(tr("PLACE_%d" % (i + 1)))
		for i in e.order.size():
			var shown := card.find_child("Place%d" % (i + 1), true, false)
			expect(shown != null and (shown.find_child("Medal", true, false) as Label).text == medals[i],
				"%s: place %d wears its medal on the card" % [locale, i + 1])
		for px in SIZES:
			await _resize(vp, px)
			await frames(2)
			_check_inside_and_apart(table.modal, table, "ceremony %s %dx%d" % [locale, px.x, px.y])
			var panel := table.modal.panel.get_global_rect()
			for seat in 4:
				var badge: SeatBadge = table.badges[seat]
				if badge.is_visible_in_tree() and panel.grow(-1.0).intersects(badge.avatar().get_global_rect().grow(-1.0)):
					_problems.append("ceremony %s %dx%d: covers seat %d's portrait" % [locale, px.x, px.y, seat])
			for id in table.hand.cards():
				var v: CardView = table.layer.find_view(id)
				if v != null and v.is_visible_in_tree() \
						and panel.grow(-1.0).intersects(Rect2(v.global_position, v.size * v.scale).grow(-1.0)):
					_problems.append("ceremony %s %dx%d: covers the hand's card %d" % [locale, px.x, px.y, id])
					break
	Settings.set_value(&"locale", "en")
	await _resize(vp, SIZES[0])


## The modal's panel inside the window; its labels, portraits and buttons inside the panel and
## none over another (the texts are never clipped: a label is at least as wide as its text).
func _check_inside_and_apart(modal: Modal, table: Table, where: String) -> void:
	var view: Rect2 = table.get_viewport_rect()
	var panel := modal.panel.get_global_rect()
	if not view.grow(1.0).encloses(panel):
		_problems.append("%s: the panel %s leaves the window %s" % [where, panel, view])
	var leaves: Array[Control] = []
	for c: Node in modal.panel.find_children("*", "Control", true, false):
		var ctl := c as Control
		if not ctl.is_visible_in_tree() or not (ctl is Label or ctl is Button or ctl is SeatAvatar):
			continue
		if ctl is Label and ((ctl as Label).text == "" or ctl.get_parent() is Button):
			continue
		leaves.append(ctl)
		var r := ctl.get_global_rect()
		if not panel.grow(1.0).encloses(r):
			_problems.append("%s: %s %s leaves the panel %s" % [where, ctl.name, r, panel])
		if ctl is Label and (ctl as Label).get_minimum_size().x > ctl.size.x + 1.0:
			_problems.append("%s: %s '%s' is clipped" % [where, ctl.name, (ctl as Label).text])
	for i in leaves.size():
		for j in range(i + 1, leaves.size()):
			var a := leaves[i].get_global_rect().grow(-1.0)
			var b := leaves[j].get_global_rect().grow(-1.0)
			if a.intersects(b):
				_problems.append("%s: %s '%s' overlaps %s '%s'" % [where, leaves[i].name, _text(leaves[i]), leaves[j].name,
					_text(leaves[j])])


static func _text(c: Control) -> String:
	return (c as Label).text if c is Label else ((c as Button).text if c is Button else "")


## A ranked match's rating: counted up from before to after (animations on), shown once — the
## online table's plain line of the same rating, added before or after, is hidden under it.
func test_the_rating_counts_up_and_is_said_once() -> void:
	Settings.set_value(&"locale", "en")
	Settings.set_value(&"anim_speed", 1.0)
	var modal := Modal.create()
	add_child(modal)
	var body := MatchEndPanel.create()
	modal.open_screen("Match", [body], [[&"menu", "BTN_MENU"]])
	await frames(1)
	var plain := tr("ONLINE_RATING_FMT").format({rating = 1226, change = "+24"})
	modal.add_line(plain)
	body.show_rating(1226, 24)
	var rating: Label = body.get_node(^"%Rating")
	expect(rating.is_visible_in_tree(), "the rating is shown")
	expect("1202" in rating.text, "it starts from the rating before the match: %s" % rating.text)
	expect(await wait_until(func() -> bool: return "1226" in rating.text, 5.0), "and counts up to 1226: %s" % rating.text)
	expect("+24" in rating.text, "with its change: %s" % rating.text)
	modal.add_line(plain)
	modal.add_line("The room has closed.")
	var shown: Array[String] = []
	for l in (modal.get_node(^"%Lines") as Node).get_children():
		if l is Label and (l as Label).is_visible_in_tree() and not l.is_queued_for_deletion():
			shown.append((l as Label).text)
	expect_eq(shown, ["The room has closed."] as Array[String], "the plain rating lines are hidden, the others stay")
	modal.queue_free()
	await frames(1)


## Issue 54: the end screen of a ranked online match, fed typed: each column named as its seat
## shows it (a person by the nickname under its portrait, an AI seat by its place), the medals
## of the deals, and the rank from the game's RankTable — called out when the rating crosses a
## rank's floor (up or down), said plainly when it does not; counted up, the call-out comes as
## the count crosses.
func test_a_ranked_online_end_names_the_players_and_calls_out_the_rank() -> void:
	Settings.set_value(&"locale", "en")
	var ranks := RankTable.current()
	expect_eq(ranks.floors.size(), ranks.name_keys.size(), "a name for every rank")
	expect_eq([ranks.rank_of(999), ranks.rank_of(1000), ranks.rank_of(1199), ranks.rank_of(1200), ranks.rank_of(2400)],
		[0, 0, 0, 1, ranks.floors.size() - 1], "ranks by their floors")
	var table: Table = load("res://table/table.tscn").instantiate()
	table.open({config = MatchConfig.with({seed = 3, save_record = false, turn_timer = 0})})
	add_child(table)
	await frames(2)
	SeatKinds.show_names(table.badges, PackedStringArray(["Alice", "", "Bob", ""]))
	var tally := MatchTally.new()
	for order in [[0, 1, 2, 3], [2, 0, 3, 1]]:
		var e := DealEndedEvent.new()
		e.order = PackedInt32Array(order)
		tally.note(e)
	var modal := Modal.create()
	add_child(modal)
	var body := MatchEndPanel.create()
	modal.open_screen("Match", [body], [[&"menu", "BTN_MENU"]])
	body.show_match(table, tally)
	await frames(1)
	var names := {}
	for seat in 4:
		names[seat] = ((body.get_node(^"%Players") as Node).get_node("Seat%d" % seat).get_node(^"Name") as Label).text
	expect_eq(names, {0: "Alice", 1: Wording.seat_name(1, 0), 2: "Bob", 3: Wording.seat_name(3, 0)},
		"people by their nicknames, AI seats by their places")
	expect_eq(body.medals_shown(0), PackedInt32Array([1, 1, 0, 0]), "Alice's medals: a 1st and a 2nd")
	# 1186 + 24 = 1210 crosses Skilled's floor (1200); 1300 + 20 stays in it; 1205 - 15 falls back.
	var cases := [[1210, 24, "Up to Skilled!"], [1320, 20, "Rank: Skilled"], [1190, -15, "Down to Novice"]]
	for c: Array in cases:
		body.show_rating(c[0], c[1], true)
		expect_eq(body.rank_shown(), c[2], "rating %d (%+d)" % [c[0], c[1]])
	# Counted up (animations on): the plain rank first, the call-out once the count crosses 1200.
	Settings.set_value(&"anim_speed", 1.0)
	body.show_rating(1210, 24)
	expect_eq(body.rank_shown(), "Rank: Novice", "the count starts below the floor")
	expect(await wait_until(func() -> bool: return body.rank_shown() == "Up to Skilled!", 5.0), "and calls the new rank out: %s" % body.rank_shown())
	Settings.set_value(&"locale", "zh_CN")
	body.show_rating(1210, 24, true)
	expect_eq(body.rank_shown(), "升到好手！", "in Chinese")
	modal.queue_free()
	table.queue_free()
	await frames(1)


## A match given up in its first deal played one deal, not "0" (seen on the online end screen
## after a surrender); finished deals count once however their start was seen.
func test_a_deal_given_up_part_way_counts_as_played() -> void:
	var tally := MatchTally.new()
	tally.note(DealStartedEvent.new())
	expect_eq(tally.deals(), 1, "a surrender in the first deal: one deal played")
	var ended := DealEndedEvent.new()
	ended.order = PackedInt32Array([0, 1, 2, 3])
	tally.note(ended)
	expect_eq(tally.deals(), 1, "the same deal, finished")
	var from_save := MatchTally.new()
	for i in 2:
		var e := DealEndedEvent.new()
		e.order = PackedInt32Array([1, 0, 3, 2])
		from_save.note(e)
	expect_eq(from_save.deals(), 2, "deals seen ending count without their starts")
