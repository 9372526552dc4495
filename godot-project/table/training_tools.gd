extends Control
## The table's advice layer. In every mode: the readings of an ambiguous selection as buttons
## ("Play as Straight 4–8" / "as Three pairs"). In training mode (and while Settings hints is on):
## hints on demand that cycle through the alternatives, the wild snap (when the selection is one
## card short, the wild that completes it lifts and glows), the "why" panel with the AI's reasons,
## the heat map over the hand, and the AI debug overlay (Settings ai_debug).
## All rules knowledge comes from the MatchController (MoveAdvisor in Rust).

var table: Table

# The why panel and the debug overlay live in the table's sidebar (table.tscn), under the
# history, so they never cover a seat or a play.
@onready var _why: PanelContainer = %WhyPanel
@onready var _why_label: Label = %WhyText
@onready var _debug: PanelContainer = %AiDebug
@onready var _debug_label: Label = %DebugText
var _hints: Array[Hint] = []
var _hint_index := -1
var _info: Selection = null
var _info_for := PackedInt32Array()
var _debug_lines: PackedStringArray = []
## The why panel stands on its own (no sidebar column), in this room (set by the table's layout).
var _floating := false
var _float_room := Rect2()
## What the heat map's colours mean (in the sidebar while the heat map is on).
@onready var heat_legend: GridContainer = %HeatLegend

## The floating why panel's width when the reason fits in it (the sidebar column's).
const FLOAT_WHY_W := 320.0
const LEGEND_KEYS := {"bomb": "HEAT_LEGEND_BOMB", "straight": "HEAT_LEGEND_STRAIGHT", "wild": "HEAT_LEGEND_WILD",
	"danger": "HEAT_LEGEND_DANGER"}


## Connects to the hand and fills the heat legend (the table calls it once `table` is set).
func setup() -> void:
	table.hand.hint_dismissed.connect(_on_hint_dismissed)
	# One swatch and caption per heat colour: the palette is TableStyle's (table_default.tres).
	var palette: Dictionary = TableStyle.current().heat_colors()
	for cat: String in palette:
		var swatch := ColorRect.new()
		swatch.color = Color(palette[cat], 1.0)
		swatch.custom_minimum_size = Vector2(14, 14)
		swatch.size_flags_vertical = Control.SIZE_SHRINK_CENTER
		swatch.mouse_filter = Control.MOUSE_FILTER_IGNORE
		heat_legend.add_child(swatch)
		heat_legend.add_child(UiKit.label(LEGEND_KEYS.get(cat, cat), 14))


## The sidebar is `width` wide. Its labels wrap to the width the sidebar gives them; a minimum
## width of their own would widen the sidebar past its column.
##
## The why text is given the column's width as its least width (issue 53): a wrapping label
## without one measures its height at whatever width it last had — a few pixels while the
## sidebar was hidden — so it stood one letter a line ("H i n") and pushed the panel below the
## window.
func fit_sidebar(width: float) -> void:
	_why_label.custom_minimum_size = Vector2(maxf(width - _why_framing_x(), 0.0), 0.0)
	_debug_label.custom_minimum_size = Vector2.ZERO
	_floating = width <= 0.0
	_why_label.max_lines_visible = -1


## The why panel's horizontal margins (its style box).
func _why_framing_x() -> float:
	var panel := _why.get_theme_stylebox(&"panel")
	return panel.get_minimum_size().x if panel != null else 0.0


## Without the sidebar's column (the history closed) the sidebar holds only the why panel and
## stands in `room` (frame coordinates: right of North, above East), the column's width or wider
## where the whole reason needs it (a reason cut mid-sentence told the player nothing: the CI's
## 1280×720 shot), its lines at most the room's height (then ending in "…"); shown only while the
## panel has something to say.
func float_why(room: Rect2) -> void:
	_float_room = room
	_place_floating_why()


func _place_floating_why() -> void:
	if not _floating:
		return
	var sidebar: Control = table.sidebar
	var room := _float_room
	var wanted := _why.visible and room.size.x >= 120.0 and room.size.y >= 40.0
	sidebar.visible = wanted
	if not wanted:
		return
	var font := _why_label.get_theme_font(&"font")
	var font_size := _why_label.get_theme_font_size(&"font_size")
	var line_h := font.get_height(font_size) + _why_label.get_theme_constant(&"line_spacing")
	var panel := _why.get_theme_stylebox(&"panel")
	var framing := panel.get_minimum_size().y if panel != null else 0.0
	var most := maxi(int((room.size.y - framing) / maxf(line_h, 1.0)), 1)
	var w := minf(FLOAT_WHY_W, room.size.x)
	while w < room.size.x and why_lines(w - _why_framing_x(), font, font_size) > most:
		w = minf(w + 32.0, room.size.x)
	_why_label.custom_minimum_size = Vector2(maxf(w - _why_framing_x(), 0.0), 0.0)
	_why_label.max_lines_visible = most
	sidebar.position = Vector2(room.end.x - w, room.position.y)
	sidebar.size = Vector2(w, room.size.y)


## How many lines the why text takes at `width` (as its label wraps it).
func why_lines(width: float, font: Font, font_size: int) -> int:
	if _why_label.text.is_empty() or width <= 0.0:
		return 0
	var flags := TextServer.BREAK_MANDATORY | TextServer.BREAK_WORD_BOUND | TextServer.BREAK_ADAPTIVE
	var line_h := font.get_height(font_size)
	var h := font.get_multiline_string_size(_why_label.text, HORIZONTAL_ALIGNMENT_LEFT, width, font_size, -1, flags).y
	return ceili(h / maxf(line_h, 1.0) - 0.01)


## The player changed the hinted selection: the why panel no longer explains it.
func _on_hint_dismissed() -> void:
	_show_why("")


func is_training() -> bool:
	return table.mode == &"training"


func hints_on() -> bool:
	return is_training() and bool(Settings.get_value(&"hints"))


## The advisor's reading of the current selection (null when there is none or no advisor).
func selection_info() -> Selection:
	var sel: PackedInt32Array = table.hand.selected_ids()
	if sel.is_empty() or table.duty != &"play":
		return null
	if sel != _info_for:
		_info_for = sel
		_info = table.controller.advice.selection(sel)
	return _info


## The hints shown so far this turn (tests read them).
func current_hints() -> Array[Hint]:
	return _hints


## Shows the next hint: selects its cards, highlights them, explains why.
func next_hint() -> void:
	if not hints_on() or table.duty != &"play":
		return
	if _hints.is_empty():
		_hints = table.controller.advice.hints(5)
		_hint_index = -1
	if _hints.is_empty():
		table.toast(tr("NO_HINT"))
		return
	_hint_index = (_hint_index + 1) % _hints.size()
	var h: Hint = _hints[_hint_index]
	var play: Play = h.play
	var cards := play.cards if play != null else PackedInt32Array()
	if cards.is_empty():
		table.hand.clear_selection()
		table.hand.set_hinted(PackedInt32Array())
	else:
		table.hand.set_hint_selection(cards)
	var what := tr("HINT_PASS") if cards.is_empty() else PlayText.describe(play)
	var text := tr("HINT_FMT").format({i = _hint_index + 1, n = _hints.size(), play = what})
	if h.reason != "" and Settings.get_value(&"why_panel"):
		text += "\n" + PlayText.reason(h.reason, Array(h.reason_args))
	_show_why(text)


func on_duty(what: StringName) -> void:
	_hints = []
	_hint_index = -1
	_info_for = PackedInt32Array()
	_show_why("")
	if what == &"play":
		_apply_heat()


func on_hand_changed() -> void:
	_info_for = PackedInt32Array()
	_apply_heat()


func on_cards_played(_seat: int) -> void:
	_hints = []
	_hint_index = -1
	_clear_readings()
	table.hand.set_snap(PackedInt32Array())
	table.hand.set_hinted(PackedInt32Array())
	_show_why("")


func on_selection_changed() -> void:
	_update_readings()


func on_ai_decided(seat: int) -> void:
	if not Settings.get_value(&"ai_debug"):
		_debug.visible = false
		return
	var trace: AiTrace = table.controller.advice.ai_trace(seat)
	var line := "%s: " % tr("SEAT_%d" % seat)
	if trace == null:
		line += "—"
	else:
		line += "%s %s" % [trace.agent, PlayText.reason(trace.reason, Array(trace.reason_args))]
		var cands: Array[AiCandidate] = trace.candidates
		for i in mini(cands.size(), 3):
			var c: AiCandidate = cands[i]
			var what := tr("HINT_PASS") if c.play == null else PlayText.describe(c.play)
			line += "\n   %s  %.2f" % [what, c.score]
	_debug_lines.append(line)
	while _debug_lines.size() > 4:
		_debug_lines.remove_at(0)
	_debug_label.text = "\n".join(_debug_lines)
	_debug.visible = true
	_debug.reset_size()


func refresh() -> void:
	if not Settings.get_value(&"ai_debug"):
		_debug.visible = false
	if not hints_on():
		_why.visible = false
		_place_floating_why()
		table.hand.set_snap(PackedInt32Array())
	_apply_heat()


func _update_readings() -> void:
	_clear_readings()
	var info := selection_info()
	var snap := PackedInt32Array()
	if info != null:
		var readings: Array[Reading] = info.readings
		if readings.size() >= 2:
			for p: Reading in readings:
				var b := UiKit.button("", table.play_selection.bind(p.index), 18, Vector2(0, 44))
				b.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
				b.text = tr("PLAY_AS_FMT").format({play = PlayText.describe(p.play)})
				b.focus_mode = Control.FOCUS_NONE
				b.disabled = not p.playable
				table.readings_box.add_child(b)
		if hints_on():
			for s: WildSnap in info.wild_snaps:
				snap.append(s.wild)
			if not snap.is_empty():
				var s0: WildSnap = info.wild_snaps[0]
				_show_why(tr("WILD_SNAP_FMT").format({card = PlayText.card_text(snap[0]),
					rank = Cards.rank_label(s0.as_rank), play = PlayText.describe(s0.play)}))
	table.hand.set_snap(snap)


func _clear_readings() -> void:
	for c in table.readings_box.get_children():
		table.readings_box.remove_child(c)
		c.queue_free()


func _apply_heat() -> void:
	heat_legend.visible = is_training() and bool(Settings.get_value(&"heat_map"))
	if is_training() and Settings.get_value(&"heat_map") and table.duty != &"" and not table.spectator:
		table.hand.set_heat(heat_colors(table.controller.advice.heat_map(), TableStyle.current().heat_colors()))
	else:
		table.hand.set_heat({})


## Card id -> overlay colour from the advisor's weights (bomb, straight, wild, danger; the
## palette's keys): the strongest category wins; its weight scales the colour's alpha.
static func heat_colors(heat: Array[CardHeat], palette: Dictionary) -> Dictionary:
	var colors := {}
	for h: CardHeat in heat:
		var weights := {bomb = h.bomb, straight = h.straight, wild = h.wild, danger = h.danger}
		var best := ""
		var best_w := 0.05
		for cat: String in palette:
			var w := float(weights.get(cat, 0.0))
			if w > best_w:
				best = cat
				best_w = w
		if best != "":
			var c: Color = palette[best]
			colors[h.card] = Color(c, c.a * clampf(best_w, 0.35, 1.0))
	return colors


func _show_why(text: String) -> void:
	_why_label.text = text
	_why.visible = text != "" and hints_on()
	_why.reset_size()
	_place_floating_why()
