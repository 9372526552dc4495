@tool
class_name CardStyle
extends Resource
## How a card looks: the face, the suits' colours, the level-card and wild tints, the back, the
## selection marks, the corner radius, the font sizes, and how the hand fans and lifts cards.
## Saved as .tres under res://resources/style/; the game draws every card from the style in use
## (`CardStyle.current()`), so editing the .tres in the inspector restyles the game with no code.
##
## Sizes given as "× width" scale with the card, so one style fits every card size on screen.

## The default look and the high-contrast one (the player's "High-contrast cards" setting).
const DEFAULT_PATH := "res://resources/style/card_default.tres"
const HIGH_CONTRAST_PATH := "res://resources/style/card_high_contrast.tres"

@export_group("Face")
## Paper colour of an ordinary face.
@export var face_color := Color(0.985, 0.98, 0.96):
	set(v):
		face_color = v
		emit_changed()
## Face tint of the deal's level cards (all suits of the level rank).
@export var level_face_color := Color(1.0, 0.96, 0.84):
	set(v):
		level_face_color = v
		emit_changed()
## Thin outline of a face.
@export var border_color := Color(0.45, 0.45, 0.45):
	set(v):
		border_color = v
		emit_changed()
## Outline width of a face, × width.
@export_range(0.0, 0.1, 0.001) var border_width := 0.012:
	set(v):
		border_width = v
		emit_changed()
## Corner radius, × width.
@export_range(0.0, 0.3, 0.005) var corner_radius := 0.08:
	set(v):
		corner_radius = v
		emit_changed()

@export_group("Suits")
@export var spades_color := Color(0.1, 0.1, 0.12):
	set(v):
		spades_color = v
		emit_changed()
@export var hearts_color := Color(0.82, 0.1, 0.12):
	set(v):
		hearts_color = v
		emit_changed()
@export var clubs_color := Color(0.1, 0.1, 0.12):
	set(v):
		clubs_color = v
		emit_changed()
@export var diamonds_color := Color(0.82, 0.1, 0.12):
	set(v):
		diamonds_color = v
		emit_changed()
## Letters and star of the small joker.
@export var small_joker_color := Color(0.1, 0.1, 0.12):
	set(v):
		small_joker_color = v
		emit_changed()
## Letters and star of the big joker.
@export var big_joker_color := Color(0.82, 0.1, 0.12):
	set(v):
		big_joker_color = v
		emit_changed()

@export_group("Wild card")
## Frame of a wild (the heart of the level rank) and the wild-snap glow.
@export var wild_frame_color := Color(0.95, 0.74, 0.2):
	set(v):
		wild_frame_color = v
		emit_changed()
## Frame width of a wild, × width.
@export_range(0.0, 0.15, 0.001) var wild_frame_width := 0.045:
	set(v):
		wild_frame_width = v
		emit_changed()
## Text on the wild's round badge ("WILD" / "配").
@export var wild_badge_text_color := Color(0.35, 0.15, 0.0):
	set(v):
		wild_badge_text_color = v
		emit_changed()

@export_group("Fonts")
## Corner rank of 2–9, J, Q, K, A, × width.
@export_range(0.1, 0.6, 0.01) var rank_size := 0.3:
	set(v):
		rank_size = v
		emit_changed()
## Corner rank "10" (two characters), × width.
@export_range(0.1, 0.6, 0.01) var rank_size_two_chars := 0.25:
	set(v):
		rank_size_two_chars = v
		emit_changed()
## Corner suit symbol under the rank, × width.
@export_range(0.1, 0.5, 0.01) var corner_suit_size := 0.24:
	set(v):
		corner_suit_size = v
		emit_changed()
## Big suit symbol in the middle of 2–10 and A, × width.
@export_range(0.1, 1.0, 0.01) var centre_suit_size := 0.56:
	set(v):
		centre_suit_size = v
		emit_changed()
## Big letter of J, Q, K, × width.
@export_range(0.1, 1.0, 0.01) var court_size := 0.5:
	set(v):
		court_size = v
		emit_changed()

@export_group("Back")
@export var back_color := Color(0.55, 0.1, 0.14):
	set(v):
		back_color = v
		emit_changed()
## The lattice on the back.
@export var back_line_color := Color(0.68, 0.2, 0.24):
	set(v):
		back_line_color = v
		emit_changed()
## Inner frame and the emblem.
@export var back_emblem_color := Color(0.95, 0.74, 0.2):
	set(v):
		back_emblem_color = v
		emit_changed()
## Outer edge of the back.
@export var back_edge_color := Color(0.3, 0.05, 0.08):
	set(v):
		back_edge_color = v
		emit_changed()

@export_group("Marks")
## Tint over a selected card.
@export var selected_tint := Color(0.3, 0.6, 1.0, 0.22):
	set(v):
		selected_tint = v
		emit_changed()
## Outline of a selected card.
@export var selected_border := Color(0.25, 0.55, 1.0):
	set(v):
		selected_border = v
		emit_changed()
## Outline of a hinted card (training); never confused with the wild frame.
@export var hint_border := Color(0.25, 0.95, 1.0):
	set(v):
		hint_border = v
		emit_changed()
## Shade over the hand while it is not the player's turn.
@export var dim_color := Color(0, 0, 0, 0.28):
	set(v):
		dim_color = v
		emit_changed()
@export var shadow_color := Color(0, 0, 0, 0.28):
	set(v):
		shadow_color = v
		emit_changed()

@export_group("Hand")
## Pixels a selected card rises out of the hand.
@export_range(0.0, 60.0, 1.0, "suffix:px") var selected_lift := 20.0:
	set(v):
		selected_lift = v
		emit_changed()
## Visible share of each card when the hand is packed tightest (0.35 = 65 % overlap).
@export_range(0.15, 1.0, 0.01) var min_visible := 0.35:
	set(v):
		min_visible = v
		emit_changed()
## Visible share of each card when there is room (0.5 = 50 % overlap).
@export_range(0.15, 1.0, 0.01) var max_visible := 0.5:
	set(v):
		max_visible = v
		emit_changed()

## A style set by code (tools, tests) that wins over the player's setting; null = the setting's.
static var _override: CardStyle
static var _cache := {}  # path -> CardStyle


## The style every card is drawn with now: the override if any, else the high-contrast style when
## the player turned it on, else the default.
static func current() -> CardStyle:
	if _override != null:
		return _override
	return load_style(HIGH_CONTRAST_PATH if _high_contrast_on() else DEFAULT_PATH)


## Uses `style` for every card (null: the player's setting decides again) and redraws them.
static func use(style: CardStyle) -> void:
	_override = style
	var tree := Engine.get_main_loop() as SceneTree
	if tree != null:
		tree.call_group(&"card_views", &"queue_redraw")


## The player's "High-contrast cards" setting (off in the editor, where no autoload runs).
static func _high_contrast_on() -> bool:
	if Engine.is_editor_hint():
		return false
	var tree := Engine.get_main_loop() as SceneTree
	var settings := tree.root.get_node_or_null(^"Settings") if tree != null else null
	return settings != null and bool(settings.get_value(&"high_contrast_cards"))


## The style saved at `path`, loaded once.
static func load_style(path: String) -> CardStyle:
	var s: CardStyle = _cache.get(path)
	if s == null:
		s = load(path) as CardStyle
		if s == null:
			push_error("CardStyle: %s is not a CardStyle" % path)
			s = CardStyle.new()
		_cache[path] = s
	return s


## Colour of the rank and suit of card `id`.
func ink(id: int) -> Color:
	match Cards.suit(id):
		Cards.Suit.SPADES:
			return spades_color
		Cards.Suit.HEARTS:
			return hearts_color
		Cards.Suit.CLUBS:
			return clubs_color
		Cards.Suit.DIAMONDS:
			return diamonds_color
	return big_joker_color if Cards.value(id) == Cards.BIG_JOKER else small_joker_color
