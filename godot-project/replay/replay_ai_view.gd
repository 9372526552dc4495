class_name ReplayAiView
extends RefCounted
## What the AI would weigh for the seat that decides at a replay's position
## (ReplayController.ai_view): its hints in the play phase, the cards it may give or return in a
## tribute or return.

## The seat that decides.
var seat := -1
## The advisor's hints, best first (play phase).
var hints: Array[Hint] = []
## The cards the seat may give or return (tribute and return phases).
var options := PackedInt32Array()


func _init(deciding: int) -> void:
	seat = deciding
