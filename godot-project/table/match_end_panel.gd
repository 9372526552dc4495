class_name MatchEndPanel
extends VBoxContainer
## The end-of-match panel's body (match_end_panel.tscn), shown inside the modal under its title:
## why the match ended and both teams' final levels. The layout and look are the scene's.


## A panel built from match_end_panel.tscn.
static func create() -> MatchEndPanel:
	return load("res://table/match_end_panel.tscn").instantiate()


## Texts are already translated.
func fill(reason: String, final_levels: String) -> void:
	(%Reason as Label).text = reason
	(%FinalLevels as Label).text = final_levels
