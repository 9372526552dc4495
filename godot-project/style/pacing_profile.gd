class_name PacingProfile
extends Resource
## How fast the table moves: animation lengths, how long a play stays readable before the next
## one is shown, the AI's least thinking time and the turn clock's warning. Every time here is
## at animation speed ×1; the table divides by the player's animation-speed setting (and shows
## everything at once when animations are off). The default is
## res://resources/style/pacing_default.tres; a table can be given another (tests do).

## A play flying from a seat to the centre.
@export_range(0.0, 2.0, 0.01, "suffix:s") var play_s := 0.28
## The centre being gathered when the table clears.
@export_range(0.0, 2.0, 0.01, "suffix:s") var gather_s := 0.35
## The deal flying into the hand (before the per-card stagger).
@export_range(0.0, 2.0, 0.01, "suffix:s") var deal_s := 0.3
## A tribute or a return moving between seats.
@export_range(0.0, 2.0, 0.01, "suffix:s") var exchange_s := 0.45
## How long a banner ("Table cleared · North leads") stays up at full strength.
@export_range(0.2, 5.0, 0.05, "suffix:s") var banner_hold_s := 1.1
## Least time a play (or a pass, a tribute, a return) stays on screen before the next event is
## shown, so three quick AI answers can still be read one by one.
@export_range(0.0, 5.0, 0.05, "suffix:s") var min_play_visible_s := 0.9
## Share of min_play_visible_s a pass waits. 1: a pass stays as long as a play (issue 24: three
## passes and the table clearing after a bomb went by in under 3 s).
@export_range(0.0, 1.0, 0.05) var pass_visible_share := 1.0
## Least time between asking an AI seat and its move (a match config may override it).
@export_range(0, 5000, 10, "suffix:ms") var ai_think_ms := 400
## The player's clock turns red and ticks in its last seconds.
@export_range(0.0, 30.0, 0.5, "suffix:s") var clock_warning_s := 5.0
## How long a message in the prompt row (an error, auto-play, a timeout) stays before it fades.
@export_range(0.5, 10.0, 0.1, "suffix:s") var toast_s := 2.6
## Cards fly along an arc this high (a share of the flight's length; 0 = a straight line) …
@export_range(0.0, 0.5, 0.01) var flight_arc := 0.12
## … and land this far past the target before settling (a share of the flight's length).
@export_range(0.0, 0.2, 0.01) var landing_overshoot := 0.04
## The deal goes round the table one card at a time, this far apart (card backs fly to the other
## seats; the player's own cards into the hand).
@export_range(0.0, 0.1, 0.001, "suffix:s") var deal_card_gap_s := 0.012
## The end of a deal as a small ceremony: the finishers' medals come in one by one this far
## apart, then each team's level tile flips from the old level to the new one.
@export_range(0.0, 1.0, 0.01, "suffix:s") var ceremony_medal_s := 0.18
@export_range(0.0, 2.0, 0.01, "suffix:s") var ceremony_flip_s := 0.35

## How long the word-art naming a play (顺子, 炸弹 …) stays, fade included.
@export_range(0.2, 3.0, 0.05, "suffix:s") var word_art_s := 0.8
## A bomb's flash and shockwave.
@export_range(0.1, 3.0, 0.05, "suffix:s") var bomb_effect_s := 0.6
## A big moment's full-table effect (TableStyle "Moments": a big bomb, a straight flush, four
## jokers, 双下, the match won) …
@export_range(0.2, 3.0, 0.05, "suffix:s") var big_moment_s := 1.0
## … and how long the table's flow holds for it: the next event (an AI's play, the player's turn)
## waits this much longer. 0: no freeze.
@export_range(0.0, 3.0, 0.05, "suffix:s") var big_moment_freeze_s := 0.9
## The fireworks of a match won (TableStyle "Fireworks"); they go on behind the end screen …
@export_range(0.5, 8.0, 0.1, "suffix:s") var fireworks_s := 3.6
## … which waits this long for them (at least the big moment's freeze).
@export_range(0.0, 8.0, 0.1, "suffix:s") var fireworks_freeze_s := 2.2


## `seconds` at the player's animation speed: 0 when animations are off. Unlike
## Settings.anim_time, low-performance mode does not shorten reading time.
static func scaled(seconds: float) -> float:
	var speed := float(Settings.get_value(&"anim_speed"))
	return seconds / speed if speed > 0.0 else 0.0
