extends GdTestSuite
## Issue 54 (visual brief §5): the seats sit at the felt's edge. At 1280×720, 1024×768 and
## 2340×1080 in both languages, with the history open and closed: every portrait's centre lies in
## the felt's rim band (outside the oval shrunk by a portrait, inside the oval with its rim); the
## seats are no boxes ("Opponents · Normal" on a panel): no panel behind a seat that does not
## have the turn, and its second line is the team's level; no portrait overlaps a play, the plaque
## or the hand; every seat's name and level stand under its portrait, clear of the plays and the
## other seats (layout_probe.gd's name_problems; North's and the player's lines stood beside the
## portrait, at 2340×1080 until North stood beside its play there).

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")
const Probe := preload("res://tests_godot/ui/layout_probe.gd")
const TableAt := preload("res://tests_godot/ui/table_at.gd")
const SIZES: Array[Vector2i] = [Vector2i(1280, 720), Vector2i(1024, 768), Vector2i(2340, 1080)]

var table: Table


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)
	Settings.set_value(&"ai_debug", false)


func after_each() -> void:
	Settings.reset_for_tests()


func timeout_for(_method: StringName) -> float:
	return 240.0


## `p`'s distance from the centre of the ellipse inscribed in `r` (1: on its edge).
static func _ellipse_d(p: Vector2, r: Rect2) -> float:
	var c := r.get_center()
	var a := maxf(r.size.x / 2.0, 1.0)
	var b := maxf(r.size.y / 2.0, 1.0)
	return sqrt(pow((p.x - c.x) / a, 2.0) + pow((p.y - c.y) / b, 2.0))


func test_portraits_sit_on_the_felt_s_rim_and_no_seat_is_a_box() -> void:
	var st := TableStyle.current()
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			var at := await TableAt.open(self, px) as TableAt
			table = at.table
			var zone: PlayZone = table.zone
			for history_open in [false, true]:
				await at.set_history(history_open)
				for seat in 4:
					zone.show_play(seat, FakePlays.free_cards(table, [5, 6, 7, 8, 9]), zone.global_position, [], table.level)
				await frames(2)
				var where := "%s %dx%d history %s" % [locale, px.x, px.y, "open" if history_open else "closed"]
				var oval: Rect2 = at.oval()
				var hand: Rect2 = table.hand.get_global_rect()
				var plaque: Rect2 = (table.plaque as Control).get_global_rect()
				for seat in 4:
					var badge: SeatBadge = table.badges[seat]
					var face := badge.avatar().get_global_rect()
					var c := face.get_center()
					var inner := oval.grow(-face.size.x)
					var outer := oval.grow(st.rim_width + 2.0)
					var d_in := _ellipse_d(c, inner)
					var d_out := _ellipse_d(c, outer)
					expect(d_in >= 1.0 and d_out <= 1.0, "%s: seat %d's portrait %s sits on the felt's rim (%.2f out of the inner oval, %.2f of the rim's outer edge; oval %s)" % [
						where, seat, face, d_in, d_out, oval])
					for other in 4:
						var p := zone.group_rect(other)
						expect(not p.grow(-1.0).intersects(face.grow(-1.0)), "%s: seat %d's play %s is clear of seat %d's portrait %s" % [
							where, other, p, seat, face])
					expect(not plaque.grow(-1.0).intersects(face), "%s: seat %d's portrait clear of the plaque" % [where, seat])
					expect(not hand.grow(-1.0).intersects(face), "%s: seat %d's portrait clear of the hand" % [where, seat])
					var panel := badge.get_theme_stylebox(&"panel") as StyleBoxFlat
					expect(badge.active or panel == null or panel.bg_color.a <= 0.01, "%s: seat %d is no box (its panel %s)" % [
						where, seat, panel.bg_color if panel != null else Color()])
					var sub := (badge.get_node(^"%Sub") as Label).text
					expect(not sub.contains(tr("TEAM_THEM")) and not sub.contains(tr("TEAM_US")), "%s: seat %d's line is not its team: %s" % [where, seat, sub])
					expect(sub.contains(Cards.rank_label(table.team_levels[badge.seat % 2])), "%s: seat %d's line shows its team's level: %s" % [where, seat, sub])
				for p in Probe.name_problems(table, where):
					fail(p)
				zone.reset()
			await at.close()


## A deal's end: every seat has its finishing place, the player on Auto-play too, and the sides
## still hold cards. The lines stay under the portraits at every size (at 2340×1080 the player's
## fourth line, "AI Auto-Play", laid every seat's lines beside its portrait: seen in a real
## window; the place now takes that line's room; at 1280×720 a third line did not fit North's and
## the player's bands: there the portrait's medal says the place alone).
func test_names_stay_under_the_portraits_at_a_deal_s_end_on_auto_play() -> void:
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			var at := await TableAt.open(self, px) as TableAt
			table = at.table
			var counts := [0, 15, 0, 3]
			for seat in 4:
				var badge: SeatBadge = table.badges[seat]
				badge.place = [2, 4, 1, 3][seat]
				badge.count = counts[seat]
			(table.badges[0] as SeatBadge).auto_play = true
			await frames(3)
			var where := "%s %dx%d deal end, Auto-play" % [locale, px.x, px.y]
			for seat in 4:
				var badge: SeatBadge = table.badges[seat]
				expect(badge.stacked, "%s: seat %d's lines stand under its portrait" % [where, seat])
			for p in Probe.name_problems(table, where):
				fail(p)
			await at.close()


## Mid-deal with the player on Auto-play and a play before every seat: every seat's lines stand
## under its portrait (seen in a real window at 1280×720: the player's "AI Auto-Play" line laid
## North's lines beside its portrait; there the lit Auto-play switch and the blinking frame say it).
## Another seat on Auto-play too (online: a player away) keeps its line: only the player's own
## line, which the switch repeats, gives way.
func test_names_stay_under_the_portraits_with_the_player_on_auto_play() -> void:
	for locale in ["en", "zh_CN"]:
		Settings.set_value(&"locale", locale)
		for px in SIZES:
			var at := await TableAt.open(self, px) as TableAt
			table = at.table
			var zone: PlayZone = table.zone
			var counts := [13, 15, 13, 17]
			for seat in 4:
				(table.badges[seat] as SeatBadge).count = counts[seat]
				zone.show_play(seat, FakePlays.free_cards(table, [5, 6, 7, 8, 9]), zone.global_position, [], table.level)
			var me: SeatBadge = table.badges[0]
			var west: SeatBadge = table.badges[3]
			me.auto_play = true
			await frames(3)
			var where := "%s %dx%d mid-deal, Auto-play" % [locale, px.x, px.y]
			for seat in 4:
				var badge: SeatBadge = table.badges[seat]
				expect(badge.stacked, "%s: seat %d's lines stand under its portrait" % [where, seat])
			expect(me.is_blinking(), "%s: the player's frame says Auto-play" % where)
			for p in Probe.name_problems(table, where):
				fail(p)
			west.auto_play = true
			await frames(3)
			expect((west.get_node(^"%AutoPlay") as Label).visible, "%s: West's Auto-play line stays" % where)
			zone.reset()
			await at.close()
