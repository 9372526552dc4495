extends GdTestSuite
## Screens with nothing to show say so, in both languages (issue 38, item 14): Statistics with
## no data (the line at the top, each chart instead of bare axes, the recent matches), a new
## player's profile (no empty rules list, the chart and the figures say there is nothing yet).
## (The replay list's own line, REPLAY_EMPTY, was there already; the leaderboard's too.)

const LOCALES: Array[String] = ["en", "zh_CN"]


func before_each() -> void:
	Settings.reset_for_tests()
	Settings.set_value(&"anim_speed", 0.0)


func after_each() -> void:
	Settings.reset_for_tests()
	Online.profile_player = ""


## `label` is shown with the translation of `key` (not the key itself, not empty).
func _says(label: Label, key: String, what: String) -> void:
	expect(label != null and label.is_visible_in_tree(), "%s: a visible line" % what)
	if label == null:
		return
	var shown := tr(label.text) if label.auto_translate_mode != Node.AUTO_TRANSLATE_MODE_DISABLED else label.text
	expect_eq(shown, tr(key), "%s (%s)" % [what, TranslationServer.get_locale()])
	expect_ne(tr(key), key, "%s: %s is translated" % [what, key])


func _chart_says(chart: StatsChart, key: String, what: String) -> void:
	expect(chart.is_empty(), "%s: no values" % what)
	_says(chart.get_node_or_null(^"Empty") as Label, key, what)


func test_statistics_with_no_data_say_so() -> void:
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		var screen: Control = load("res://stats/stats_screen.tscn").instantiate()
		add_child(screen)
		await frames(2)
		screen.show_stats(null)
		await frames(2)
		_says(screen.get_node("%Empty") as Label, "STATS_EMPTY", "the top line")
		_chart_says(screen.over_time, "STATS_CHART_EMPTY", "the win rate over time")
		_chart_says(screen.by_level, "STATS_CHART_EMPTY", "the win rate by opponents")
		_says(screen.get_node("%RecentEmpty") as Label, "STATS_RECENT_EMPTY", "the recent matches")
		screen.queue_free()
		await frames(1)


func test_a_chart_with_values_hides_its_empty_line() -> void:
	var chart := StatsChart.new()
	add_child(chart)
	chart.show_line(PackedFloat32Array([0.5, 1.0]))
	expect(not (chart.get_node(^"Empty") as Label).visible, "values drawn: no empty line")
	chart.show_bars(PackedStringArray(), PackedFloat32Array(), PackedStringArray())
	expect((chart.get_node(^"Empty") as Label).visible, "no bars: the empty line")
	chart.queue_free()


func test_a_new_players_profile_says_there_is_nothing_yet() -> void:
	Online.profile_player = "p-new"
	var profile := {player_id = "p-new", nickname = "New", ratings = [],
		stats = {matches = 0, wins = 0, win_rate = 0.0, double_down_rate = 0.0, bombs_per_deal = 0.0}}
	for locale in LOCALES:
		Settings.set_value(&"locale", locale)
		var screen: Control = load("res://online/profile.tscn").instantiate()
		add_child(screen)
		await frames(2)
		# No server here: the screen's own request is refused at once (or fails later).
		claim_logged("fetch_profile: rejected")
		screen._on_profile(PlayerProfile.parse(JSON.stringify(profile)))
		await frames(2)
		var rules := screen.get_node("%Rules") as OptionButton
		expect(not rules.is_visible_in_tree(), "no empty rules list (%s)" % locale)
		_says(screen.get_node("%Ranked") as Label, "PROFILE_NO_RATING", "the rating line")
		_chart_says(screen.get_node("%Chart") as StatsChart, "PROFILE_CHART_EMPTY", "the rating chart")
		_says(screen.get_node("%FiguresNote") as Label, "PROFILE_NO_MATCHES", "the figures")
		screen.queue_free()
		await frames(1)
	claim_logged("fetch_profile: rejected")

