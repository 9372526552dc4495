extends GdTestSuite
## Issue 54: the plays use the room. At 2340×1080 (a phone held sideways) the trick's cards are at
## least 0.6 of the hand's card height, with the history open or closed; each seat's play lands
## in its own band between its portrait and the felt's centre; and a bomb's word-art and its
## ring (shockwave and sparks, effects on) never reach a seat, its chip or the level plaque at
## 1280×720, 1024×768 and 2340×1080 in both languages (issue 54 saw a bomb's word-art and ring
## on West's seat at 2340×1080).

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")
const Probe := preload("res://tests_godot/ui/layout_probe.gd")
const TableAt := preload("res://tests_godot/ui/table_at.gd")
const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]
## The least share of the hand's card height a play's cards have at 2340×1080.
const WIDE_SHARE := 0.6
## Bombs and the pair, each played by every seat: [type, name_key, ranks, bomb].
const PLAYS := [
	["Pair", "play.pair", [9, 9], false],
	["Bomb", "play.bomb", [8, 8, 8, 8], true],
	["Bomb", "play.bomb", [13, 13, 13, 13, 13], true],
	["Bomb", "play.bomb", [6, 6, 6, 6, 6, 6, 6, 6], true],
]

var table: Table
var at: TableAt


func before_each() -> void:
	TableAt.reset_settings(false, false)


func after_each() -> void:
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 240.0


func _open(px: Vector2i) -> void:
	at = await TableAt.open(self, px, "competition") as TableAt
	table = at.table


## The height the hand's cards are drawn at (global).
func _hand_card_h() -> float:
	for id in table.hand.cards():
		var v: CardView = table.layer.find_view(id)
		if v != null and v.visible:
			return v.size.y * v.scale.y * v.get_global_transform().get_scale().y
	return 0.0


func test_plays_use_the_room_at_2340x1080() -> void:
	await _open(Vector2i(2340, 1080))
	var zone: PlayZone = table.zone
	for history_open in [false, true]:
		await at.set_history(history_open)
		var where := "2340x1080 history %s" % ("open" if history_open else "closed")
		for seat in 4:
			zone.show_play(seat, FakePlays.free_cards(table, [5, 6, 7, 8, 9]), zone.global_position, [], table.level)
		await frames(2)
		var hand_h := _hand_card_h()
		expect(hand_h > 0.0, "%s: the hand is shown" % where)
		for seat in 4:
			var p := zone.group_rect(seat)
			expect(p.size.y >= WIDE_SHARE * hand_h - 0.5, "%s: seat %d's play is %.0f px high, %.2f of the hand's cards (%.0f px; at least %.1f)" % [
				where, seat, p.size.y, p.size.y / maxf(hand_h, 1.0), hand_h, WIDE_SHARE])
		_expect_own_bands(where)
		for p in Probe.problems(table, where):
			fail(p)
		zone.reset()
	await at.close()


## Each seat's play between its portrait and the felt's centre: North's right of North (beside it
## on this wide view) and above the centre, West's right of West and left of the centre, East's mirrored, the player's above the hand
## and below the centre.
func _expect_own_bands(where: String) -> void:
	var zone: PlayZone = table.zone
	var centre: Vector2 = at.oval().get_center()
	var face: Array[Rect2] = []
	for seat in 4:
		face.append(table.badges[seat].avatar().get_global_rect())
	var p0 := zone.group_rect(0)
	var p1 := zone.group_rect(1)
	var p2 := zone.group_rect(2)
	var p3 := zone.group_rect(3)
	# North stands beside its play here (the view has the width, not the height: TableLayout): the
	# play starts right of North's portrait, level with it, short of the centre and above it.
	expect(p2.position.x >= face[2].end.x - 1.0 and p2.position.x < centre.x and p2.position.y < face[2].end.y
		and p2.get_center().y < centre.y, "%s: North's play %s between North %s and the centre %s" % [where, p2, face[2], centre])
	expect(p3.position.x >= face[3].end.x - 1.0 and p3.get_center().x < centre.x, "%s: West's play %s between West %s and the centre %s" % [
		where, p3, face[3], centre])
	expect(p1.end.x <= face[1].position.x + 1.0 and p1.get_center().x > centre.x, "%s: East's play %s between East %s and the centre %s" % [
		where, p1, face[1], centre])
	var hand_top: float = table.hand.get_global_rect().position.y
	expect(p0.end.y <= hand_top + 1.0 and p0.get_center().y > centre.y, "%s: the player's play %s between the hand (top %.0f) and the centre %s" % [
		where, p0, hand_top, centre])


## Effects on: a pair and bombs from every seat. No play, no word-art and no bomb ring or spark
## reaches a seat's portrait, badge or chip, or the level plaque.
func test_bombs_word_art_and_ring_keep_off_the_seats() -> void:
	Settings.set_value(&"anim_speed", 1.0)
	Settings.set_value(&"low_perf", false)
	var looked := 0
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			await _open(px)
			var moments: Moments = table.moments
			var word_label := moments.get_node(^"WordArt") as Label
			for history_open in [false, true]:
				await at.set_history(history_open)
				for kind: Array in PLAYS:
					for seat in 4:
						var where := "%s %dx%d history %s, seat %d's %s of %d" % [locale, px.x, px.y,
							"open" if history_open else "closed", seat, kind[0], kind[2].size()]
						for s in 4:
							table.counts[s] = 20
						table.update_counts()
						var play := FakePlays.long_play(table, kind) if kind[0] == "Bomb" else Play.of(
							FakePlays.free_cards(table, kind[2]), table.level, kind[0])
						if not expect(play != null and play.name_key == kind[1], "%s: a real play" % where):
							continue
						table.events.tricks.on_cards_played(MatchEvents.from_dict({"signal": &"cards_played", "seat": seat, "play": play}))
						await frames(2)
						looked += 1
						var places := Probe.places(table)
						var own := table.zone.group_rect(seat)
						var word := moments.word_shown()
						var word_rect := Rect2()
						if moments.big.title_shown() != "":
							word_rect = moments.big.title_global_rect()
						elif word != "":
							word_rect = Probe.ink(word_label)
						var to_global := moments.get_global_transform()
						var reach := moments.effect_reach() * to_global.get_scale().x
						var at := to_global * moments.effect_centre()
						for p in places:
							var r: Rect2 = places[p]
							if own.grow(-1.0).intersects(r.grow(-1.0)):
								fail("%s: the play %s covers %s %s" % [where, own, p, r])
							if word_rect.has_area() and word_rect.grow(-1.0).intersects(r.grow(-1.0)):
								fail("%s: the word-art '%s' %s covers %s %s" % [where, word, word_rect, p, r])
							if kind[3] and _distance(at, r) < reach - 1.0:
								fail("%s: the bomb's ring (centre %s, reach %.0f px) reaches %s %s" % [where, at, reach, p, r])
						# A big moment lifts the play's cards and settles them (relative moves): the
						# cards go back to the pool only when they have settled.
						if moments.big.running():
							await wait_until(func() -> bool: return not moments.big.running(), 3.0)
						moments.clear()
						table.zone.reset()
			# The plays' reading time runs out before the table goes: no event is left waiting on it.
			var hold := maxf(table.pacing.banner_hold_s, table.pacing.min_play_visible_s)
			await sleep(int(PacingProfile.scaled(hold) * 1000.0) + 300)
			expect(await wait_until(func() -> bool: return table.is_idle(), 5.0), "%s %dx%d: the table is idle again" % [locale, px.x, px.y])
			await at.close()
	expect_eq(looked, 2 * SIZES.size() * 2 * PLAYS.size() * 4, "plays looked at")


## Distance from `p` to the nearest point of `r` (0 inside).
func _distance(p: Vector2, r: Rect2) -> float:
	var q := Vector2(clampf(p.x, r.position.x, r.end.x), clampf(p.y, r.position.y, r.end.y))
	return p.distance_to(q)
