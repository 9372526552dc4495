class_name DealEndPanel
extends VBoxContainer
## The end-of-deal panel's body (deal_end_panel.tscn), shown inside the modal under its title:
## the finishing order, each team's level change and the cards the last players still held.
## The layout is the scene's (%Places, %Levels, %CardsLeft); each line copies %LineTemplate's look.
## With `ceremony()` the order and the levels become a small ceremony instead of text lines
## (%Ceremony): the finishers' faces with their medals come in one by one, a 双下 banner when one
## team took both first places, and each team's level tile flips to its new level.


## A panel built from deal_end_panel.tscn.
static func create() -> DealEndPanel:
	return load("res://table/deal_end_panel.tscn").instantiate()


## `places`: one text per finishing place; `levels`: one text per team; `rows`: CardsLeftRow nodes.
## Texts are already translated.
func fill(places: PackedStringArray, levels: PackedStringArray, rows: Array[Control]) -> void:
	_lines(%Places, places)
	_lines(%Levels, levels)
	var box: Container = %CardsLeft
	for c in box.get_children():
		c.queue_free()
	for row in rows:
		box.add_child(row)
	box.visible = not rows.is_empty()


func _lines(box: Container, texts: PackedStringArray) -> void:
	for c in box.get_children():
		c.queue_free()
	var template: Label = %LineTemplate
	for text in texts:
		var l: Label = template.duplicate()
		l.unique_name_in_owner = false
		l.text = text
		l.visible = true
		box.add_child(l)


## The ceremony. `finishers`: in finishing order, {seat, name, place, ai, face_key};
## `tiles`: one LevelTile per team; `double_down`: the banner's text, "" for none. The text lines
## stay filled (hidden) for whoever reads them.
func ceremony(finishers: Array[Dictionary], tiles: Array[LevelTile], double_down: String, pacing: PacingProfile) -> void:
	%Places.visible = false
	%Levels.visible = false
	%Ceremony.visible = true
	var row: Container = %Finishers
	for c in row.get_children():
		c.queue_free()
	var name_template: Label = %FinisherName
	var entries: Array[Control] = []
	for f in finishers:
		var col := VBoxContainer.new()
		col.mouse_filter = Control.MOUSE_FILTER_IGNORE
		col.alignment = BoxContainer.ALIGNMENT_CENTER
		var face := SeatAvatar.new()
		face.seat = int(f.seat)
		face.face_key = int(f.face_key)
		face.ai = bool(f.ai)
		face.place = int(f.place)
		face.size_flags_horizontal = Control.SIZE_SHRINK_CENTER
		col.add_child(face)
		var l: Label = name_template.duplicate()
		l.unique_name_in_owner = false
		l.visible = true
		l.text = String(f.name)
		col.add_child(l)
		row.add_child(col)
		entries.append(col)
	var box: Container = %Tiles
	for c in box.get_children():
		c.queue_free()
	for t in tiles:
		box.add_child(t)
	var banner: Label = %DoubleDown
	banner.text = double_down
	banner.visible = double_down != ""
	var step := PacingProfile.scaled(pacing.ceremony_medal_s)
	var flip := PacingProfile.scaled(pacing.ceremony_flip_s)
	if step > 0.0:
		for i in entries.size():
			var e := entries[i]
			e.modulate.a = 0.0
			var tw := e.create_tween()
			tw.tween_interval(step * i)
			tw.tween_property(e, "modulate:a", 1.0, step)
	var flip_wait := step * entries.size()
	for t in tiles:
		t.flip(flip_wait, flip)


## The ceremony's level tiles (for tests).
func level_tiles() -> Array[LevelTile]:
	var out: Array[LevelTile] = []
	for c in %Tiles.get_children():
		if c is LevelTile and not c.is_queued_for_deletion():
			out.append(c)
	return out


## The ceremony's finishers' faces, in finishing order (for tests).
func finisher_faces() -> Array[SeatAvatar]:
	var out: Array[SeatAvatar] = []
	for c in %Finishers.get_children():
		if not c.is_queued_for_deletion():
			out.append(c.get_child(0) as SeatAvatar)
	return out
