extends GdTestSuite
## A ranked match's rating for a player who missed the server's word on it (back only after the
## room closed): the profile's points name their room and match, and the catch-up takes the
## latest match of the room the table showed, under its rules.


func _profile(points_by_rules: Dictionary) -> PlayerProfile:
	var ratings := []
	for rules: String in points_by_rules:
		ratings.append({rules = rules, rating = 1100, matches = 3, wins = 2, draws = 0,
			history = points_by_rules[rules]})
	return PlayerProfile.parse(JSON.stringify({player_id = "p1", nickname = "Ann", ratings = ratings,
		stats = {matches = 3, wins = 2, win_rate = 0.67, double_down_rate = 0.1, bombs_per_deal = 0.3}}))


func test_the_latest_match_of_the_room_under_its_rules_is_found() -> void:
	var p := _profile({
		competition = [
			{at = 1, rating = 1024, change = 24, room = "K7QX2M", match_no = 0},
			{at = 2, rating = 1060, change = 36, room = "ABCDEF", match_no = 0},
			{at = 3, rating = 1040, change = -20, room = "K7QX2M", match_no = 1},
		],
		huaian = [{at = 4, rating = 990, change = -10, room = "K7QX2M", match_no = 2}],
	})
	expect(p != null, "the profile parses")
	var point := RatingCatchUp.point_for(p, "competition", "K7QX2M")
	expect(point != null, "the room's match is found")
	if point != null:
		expect_eq([point.rating, point.change, point.match_no], [1040, -20, 1], "the room's latest, under its rules")
	expect_eq(RatingCatchUp.point_for(p, "competition", "ZZZZZZ"), null, "another room: none")
	expect_eq(RatingCatchUp.point_for(p, "competition", ""), null, "no room: none")
	var other := RatingCatchUp.point_for(p, "huaian", "K7QX2M")
	expect(other != null and other.change == -10, "the rules pick the rating")


func test_an_older_server_s_points_name_no_match() -> void:
	var p := _profile({competition = [{at = 1, rating = 1024, change = 24}]})
	expect(p != null, "an older server's profile parses")
	var points: Array = p.ratings[0].history
	expect_eq([String(points[0].room), points[0].match_no], ["", 0], "no room, match 0")
	expect_eq(RatingCatchUp.point_for(p, "competition", "K7QX2M"), null, "nothing is guessed")
