extends Node
## Sound effects (autoload "Sfx"). `Sfx.play(&"bomb")` plays godot-project/audio/sfx/bomb.wav on
## the "Sfx" audio bus, whose volume and mute follow the settings (sfx_volume, muted). The sounds
## are synthesized by tools/gen-assets.

## Effects the game knows; each is audio/sfx/<name>.wav.
const SOUNDS: Array[StringName] = [&"deal", &"play", &"pass", &"bomb", &"four_jokers",
	&"table_cleared", &"tribute", &"win", &"your_turn", &"tick", &"error"]
const BUS := &"Sfx"
const VOICES := 6  # sounds that may overlap

var _streams := {}
var _players: Array[AudioStreamPlayer] = []
var _next := 0
## Names played so far (newest last, at most 64): lets tests check what was heard.
var history: Array[StringName] = []
## False with the Dummy audio driver (headless runs, Xvfb screenshots): nothing is mixed there,
## so streams are not started at all (they would only pile up as playbacks).
var _audible := true


func _ready() -> void:
	if AudioServer.get_bus_index(BUS) < 0:
		AudioServer.add_bus()
		var idx := AudioServer.bus_count - 1
		AudioServer.set_bus_name(idx, BUS)
		AudioServer.set_bus_send(idx, &"Master")
	for name in SOUNDS:
		_streams[name] = load("res://audio/sfx/%s.wav" % name)
	for i in VOICES:
		var player := AudioStreamPlayer.new()
		player.bus = BUS
		add_child(player)
		_players.append(player)
	Settings.changed.connect(_on_settings_changed)
	_audible = AudioServer.get_driver_name() != "Dummy"
	_apply_volume()


func play(name: StringName, pitch := 1.0) -> void:
	var stream: AudioStream = _streams.get(name)
	if stream == null:
		push_warning("Sfx: no sound %s" % name)
		return
	history.append(name)
	if history.size() > 64:
		history.pop_front()
	if not _audible or Settings.get_value(&"muted") or float(Settings.get_value(&"sfx_volume")) <= 0.0:
		return
	var player := _players[_next]
	_next = (_next + 1) % _players.size()
	player.stream = stream
	player.pitch_scale = pitch
	player.play()


func _apply_volume() -> void:
	var idx := AudioServer.get_bus_index(BUS)
	var volume: float = Settings.get_value(&"sfx_volume")
	AudioServer.set_bus_volume_db(idx, linear_to_db(maxf(volume, 0.0001)))
	AudioServer.set_bus_mute(idx, bool(Settings.get_value(&"muted")) or volume <= 0.0)


func _on_settings_changed(key: StringName, _value: Variant) -> void:
	if key == &"sfx_volume" or key == &"muted":
		_apply_volume()
