class_name E2eDuty
extends RefCounted
## The end-to-end players' move (south, north, the ranked pair): the table's duty done through its
## controller the way a quick player would — the first hint, else a pass, else the first legal
## play; the first allowed tribute or return. Returns the controller's code (-1: nothing to do).


static func act(table: Table) -> int:
	var mc: MatchController = table.controller
	match table.duty:
		&"play":
			var hints: Array = mc.advice.hints(1)
			if not hints.is_empty() and not hints[0].passed:
				return mc.play(PackedInt32Array(hints[0].play.cards))
			if table.can_pass:
				return mc.pass_turn()
			var plays := mc.advice.legal_plays()
			return mc.play(PackedInt32Array(plays[0].cards)) if not plays.is_empty() else -1
		&"tribute":
			return mc.give_tribute(mc.tribute_options()[0])
		&"return":
			return mc.return_card(mc.return_options()[0])
	return -1
