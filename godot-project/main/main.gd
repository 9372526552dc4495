extends Control
## Main menu placeholder: title, and the card counts of a seeded deal, which proves that the Rust
## engine (GuandanEngine from the GDExtension) is loaded and answering.

const FIRST_SEED := 1

## GuandanEngine. Created in code (not in the .tscn) so that a missing or broken extension shows
## a message on screen instead of making the whole scene fail to load.
var _engine: Node
var _seed := FIRST_SEED

@onready var _title: Label = %Title
@onready var _subtitle: Label = %Subtitle
@onready var _deal_label: Label = %DealLabel
@onready var _version_label: Label = %VersionLabel
@onready var _deal_again: Button = %DealAgain
@onready var _quit: Button = %Quit


func _ready() -> void:
	_title.text = tr("MAIN_TITLE")
	_subtitle.text = tr("MAIN_SUBTITLE")
	_deal_again.text = tr("MAIN_DEAL_AGAIN")
	_quit.text = tr("MAIN_QUIT")
	_deal_again.pressed.connect(_on_deal_again_pressed)
	_quit.pressed.connect(_on_quit_pressed)

	if not ClassDB.class_exists(&"GuandanEngine"):
		push_error("GuandanEngine is not registered: build the extension with tools/build-extension")
		_deal_label.text = tr("MAIN_ENGINE_MISSING")
		_deal_again.disabled = true
		return
	_engine = ClassDB.instantiate(&"GuandanEngine")
	_engine.name = "Engine"
	add_child(_engine)
	_version_label.text = tr("MAIN_ENGINE_VERSION").format({"version": _engine.version()})
	_show_deal()


## The label text for the current seed; separate so tests can check it without the scene tree.
func deal_text() -> String:
	return _deal_label.text


func _show_deal() -> void:
	var hands: Array[PackedInt32Array] = _engine.deal(_seed)
	var counts := PackedStringArray()
	for hand in hands:
		counts.append(str(hand.size()))
	_deal_label.text = tr("MAIN_DEAL_COUNTS").format({"seed": _seed, "counts": " / ".join(counts)})
	EventBus.hands_dealt.emit(_seed, hands)


func _on_deal_again_pressed() -> void:
	_seed += 1
	_show_deal()


func _on_quit_pressed() -> void:
	get_tree().quit()
