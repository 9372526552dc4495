class_name GuidedDeal
extends Node
## The guided first deal: a fixed seeded training deal where a coach explains each step the
## first time it happens — the lead, following, passing, a bomb, the wild card, the partner and
## going out. It listens to the table's shown events (so it never runs ahead of the screen) and
## writes in the table's sidebar.

## The deal every beginner gets: the player holds both wilds (♥2) and leads the first trick; a
## bomb, passes, the partner's plays and players going out all come up (test_help.gd checks).
const SEED := 3

## A step was explained (tests follow the guide with it).
signal step_shown(step: StringName)

var table: Table
var _panel: PanelContainer
var _label: Label
var _previous: Label
## Steps already explained (each once): step -> the text shown.
var _done := {}


## The match config of the guided deal.
static func config() -> MatchConfig:
	return MatchConfig.with({mode = &"training", seed = SEED, ai_levels = [1, 1, 1], guided = true, save_record = false,
		rules = "competition"})


func _ready() -> void:
	name = "Guide"
	_panel = PanelContainer.new()
	_panel.name = "GuidePanel"
	_panel.mouse_filter = Control.MOUSE_FILTER_IGNORE
	var col := UiKit.vbox(4)
	_panel.add_child(col)
	col.add_child(UiKit.label("GUIDE_TITLE", 20, Color(0.98, 0.85, 0.45)))
	_label = UiKit.label("", 17)
	_label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	col.add_child(_label)
	_previous = UiKit.label("", 15, Color(1, 1, 1, 0.55))
	_previous.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED
	_previous.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_previous.visible = false
	col.add_child(_previous)
	var sidebar: Control = table.sidebar
	sidebar.add_child(_panel)
	sidebar.move_child(_panel, 0)
	table.event_handled.connect(_on_event)
	table.became_idle.connect(_on_idle)


## The steps explained so far, with their texts.
func explained() -> Dictionary:
	return _done.duplicate()


func text() -> String:
	return _label.text


func _explain(step: StringName, args := {}) -> void:
	if _done.has(step):
		return
	var text := tr("GUIDE_" + String(step).to_upper()).format(args)
	_done[step] = text
	# The step before stays underneath, dimmed, so a quick next step does not hide it.
	_previous.text = _label.text
	_previous.visible = _previous.text != ""
	_label.text = text
	step_shown.emit(step)


func _on_event(event: MatchEvent) -> void:
	if event is HandChangedEvent:
		if _done.has(&"wild") or _done.has(&"hand"):
			return  # only the dealt hand is introduced
		var wilds := PackedInt32Array()
		for id in (event as HandChangedEvent).hand:
			if Cards.is_wild(id, table.level):
				wilds.append(id)
		if not wilds.is_empty():
			_explain(&"wild", {card = PlayText.card_text(wilds[0]), level = Cards.rank_label(table.level)})
		else:
			_explain(&"hand")
	elif event is CardsPlayedEvent:
		var seat := (event as CardsPlayedEvent).seat
		var play := (event as CardsPlayedEvent).play
		if play.bomb or play.kind == "FourKings":
			_explain(&"bomb", {seat = Wording.seat_in_text(seat, table.local_seat), play = PlayText.describe(play)})
		elif seat == (table.local_seat + 2) % 4:
			_explain(&"partner", {play = PlayText.describe(play)})
	elif event is PassedEvent:
		var seat := (event as PassedEvent).seat
		if seat != table.local_seat:
			_explain(&"pass", {seat = Wording.seat_in_text(seat, table.local_seat)})
	elif event is PlayerFinishedEvent:
		_explain(&"out", {seat = Wording.seat_in_text((event as PlayerFinishedEvent).seat, table.local_seat)})


func _on_idle() -> void:
	if table.duty != &"play":
		return
	if table.can_pass:
		_explain(&"follow", {table = PlayText.describe(table.table_play)})
	else:
		_explain(&"lead")
