extends GdTestSuite
## Issue 54: the history shows cards. After N turns (plays and passes, over several rounds) the
## panel has N turn rows, the newest in view; each play's row shows exactly the play's cards (a
## wild marked, standing for its rank), each pass a stamp; the rows are reused, not rebuilt, when
## the history is drawn again; and the game data behind them is typed (no Dictionaries).

const FakePlays := preload("res://tests_godot/ui/fake_plays.gd")

var holder: Control


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"history_rounds", 5)


func after_each() -> void:
	if holder != null:
		holder.free()
	Settings.reset_for_tests()


func _panel(at: Vector2) -> HistoryPanel:
	holder = Control.new()
	holder.size = Vector2(1280, 720)
	add_child(holder)
	var history := HistoryPanel.create()
	holder.add_child(history)
	history.position = Vector2.ZERO
	history.size = at
	return history


func test_each_turn_is_a_row_of_cards_or_a_stamp_and_the_newest_is_in_view() -> void:
	var history := _panel(Vector2(300, 420))
	history.level = 4
	var plays: Array[Play] = [
		FakePlays.play(PackedInt32Array(), "Single", "play.single", 1, false),
		FakePlays.play(PackedInt32Array(), "Straight", "play.straight", 5, false),
		FakePlays.play(PackedInt32Array(), "Bomb", "play.bomb", 6, true),
		# A full house with the ♥4 wild standing for an A (the level is 4).
		Play.of(Cards.from_notation("SA CA S3 D3 H4"), 4),
	]
	expect(plays.all(func(p: Play) -> bool: return p != null), "real plays")
	var want: Array = []  # per turn: the play's cards, or null for a pass
	var n := 0
	for round in 3:
		history.new_round()
		for i in 4:
			var seat := (round + i) % 4
			var play: Play = plays[(round * 4 + i) % plays.size()] if i % 2 == 0 or round == 2 else null
			history.add(seat, play)
			want.append(play)
			n += 1
	await frames(3)
	var rows := history.turn_rows()
	expect_eq(rows.size(), n, "one row per turn")
	for i in mini(rows.size(), want.size()):
		var p: Play = want[i]
		if p == null:
			expect(rows[i].stamped() and rows[i].cards().is_empty(), "turn %d: a pass is a stamp" % i)
		else:
			var shown := Array(rows[i].cards())
			shown.sort()
			var cards := Array(p.cards)
			cards.sort()
			expect_eq(shown, cards, "turn %d: the row shows the play's cards" % i)
			expect(not rows[i].stamped(), "turn %d: no stamp on a play" % i)
	expect(history.newest_in_view(), "the newest row is in view")
	var last := rows[-1].get_global_rect()
	var view := (history.find_child("Scroll", true, false) as Control).get_global_rect().grow(1.0)
	expect(view.encloses(last), "the last row %s inside the view %s" % [last, view])
	# The wild stands for its rank in the small cards.
	var wild_row: HistoryRow = null
	for r in rows:
		if Cards.from_notation("H4")[0] in r.cards():
			wild_row = r
	expect(wild_row != null, "the full house with the wild has a row")
	if wild_row != null:
		var mini := wild_row.find_children("*", "MiniCards", true, false)[0] as MiniCards
		var at := Array(mini.ids).find(Cards.from_notation("H4")[0])
		expect(at >= 0 and mini.stands[at] == 14, "the ♥4 wild stands for an A (%s / %s)" % [mini.ids, mini.stands])


func test_rows_are_reused_when_the_history_is_drawn_again() -> void:
	var history := _panel(Vector2(300, 420))
	history.new_round()
	for seat in 4:
		history.add(seat, FakePlays.play(PackedInt32Array(), "Single", "play.single", 1, false) if seat != 1 else null)
	await frames(2)
	var before := history.turn_rows()
	var ids := before.map(func(r: HistoryRow) -> int: return r.get_instance_id())
	history.local_seat = 2  # draws every row again (the names change)
	history.add(0, null)
	await frames(2)
	var after := history.turn_rows()
	expect_eq(after.size(), before.size() + 1, "one more row")
	expect_eq(after.slice(0, before.size()).map(func(r: HistoryRow) -> int: return r.get_instance_id()), ids, "the same rows, reused")


func test_the_history_holds_typed_entries() -> void:
	var history := _panel(Vector2(300, 420))
	history.add_note("note")
	history.new_round()
	history.add(3, null)
	for r in history.get("_rounds"):
		expect(r is HistoryPanel.Round, "a round is typed")
		for e in (r as HistoryPanel.Round).entries:
			expect(e is HistoryPanel.Entry, "an entry is typed")
