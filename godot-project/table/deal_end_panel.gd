class_name DealEndPanel
extends VBoxContainer
## The end-of-deal panel's body (deal_end_panel.tscn), shown inside the modal under its title:
## the finishing order, each team's level change and the cards the last players still held.
## The layout is the scene's (%Places, %Levels, %CardsLeft); each line copies %LineTemplate's look.


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
