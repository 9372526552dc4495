class_name CardCounterView
extends PanelContainer
## The card counter (记牌器): one narrow column per rank (2 … A, small joker, big joker) with how
## many of those cards the other three players still hold. The numbers come from the Rust
## MoveAdvisor through the MatchController (the player's own view only); this node only draws
## them, compact enough for a phone. A rank all gone is dimmed.

const RANK_TEXT := ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
const GONE := Color(1, 1, 1, 0.3)
## The rank letters' and the counts' font sizes (raised to what the window shows readably:
## set_text_floor).
const RANK_FONT := 14
const COUNT_FONT := 17

var _counts: Array[Label] = []
var _ranks: Array[Label] = []
var _values := PackedInt32Array()


func _init() -> void:
	name = "CardCounter"
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	var style := StyleBoxFlat.new()
	style.bg_color = Color(0.02, 0.08, 0.05, 0.78)
	style.set_corner_radius_all(8)
	style.content_margin_left = 6
	style.content_margin_right = 6
	style.content_margin_top = 2
	style.content_margin_bottom = 2
	add_theme_stylebox_override(&"panel", style)
	var row := HBoxContainer.new()
	row.add_theme_constant_override(&"separation", 0)
	row.mouse_filter = Control.MOUSE_FILTER_IGNORE
	add_child(row)
	for i in 15:
		var col := VBoxContainer.new()
		col.add_theme_constant_override(&"separation", -4)
		col.mouse_filter = Control.MOUSE_FILTER_IGNORE
		col.custom_minimum_size = Vector2(22, 0)
		row.add_child(col)
		var rank := Label.new()
		rank.add_theme_font_size_override(&"font_size", RANK_FONT)
		rank.add_theme_color_override(&"font_color", Color(1.0, 0.85, 0.5) if i >= 13 else Color(0.8, 0.92, 0.85))
		rank.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
		rank.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		col.add_child(rank)
		_ranks.append(rank)
		var count := Label.new()
		count.add_theme_font_size_override(&"font_size", COUNT_FONT)
		count.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
		count.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
		col.add_child(count)
		_counts.append(count)
	_update_ranks()


## No text below `least` (UiLayout.readable_font_size: a window that shrinks the table grows
## it); the columns widen with it.
func set_text_floor(least: int) -> void:
	for i in 15:
		_ranks[i].add_theme_font_size_override(&"font_size", maxi(RANK_FONT, least))
		_counts[i].add_theme_font_size_override(&"font_size", maxi(COUNT_FONT, least))
		(_counts[i].get_parent() as Control).custom_minimum_size.x = maxf(22.0, ceilf(maxi(COUNT_FONT, least) * 1.3))


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		_update_ranks()


## Shows `counter` (UnseenCards.counts(), MatchAdvice.card_counter()); null clears it.
func show_counts(counter: CardCounter) -> void:
	_values = counter.ranks if counter != null else PackedInt32Array()
	for i in 15:
		var n := _values[i] if i < _values.size() else -1
		_counts[i].text = str(n) if n >= 0 else "-"
		_counts[i].modulate = GONE if n <= 0 else Color.WHITE
		_ranks[i].modulate = GONE if n <= 0 else Color.WHITE


## The counts shown (15 entries, or empty), for tests.
func shown() -> PackedInt32Array:
	var out := PackedInt32Array()
	for label in _counts:
		if label.text.is_valid_int():
			out.append(label.text.to_int())
	return out


func _update_ranks() -> void:
	for i in 13:
		_ranks[i].text = RANK_TEXT[i]
	_ranks[13].text = tr("COUNTER_SMALL_JOKER")
	_ranks[14].text = tr("COUNTER_BIG_JOKER")
