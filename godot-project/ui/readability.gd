extends Node
## Autoload: on a phone-shaped view (UiLayout.is_phone) raises every text below
## PhoneProfile.text_floor and every tap target lower than PhoneProfile.tap_floor to the floor;
## elsewhere puts back what the scene or script had set. Screens keep their own (desktop) sizes
## in their scenes; the phone floors live in one resource (resources/style/phone_profile.tres).
##
## Controls are handled when they enter the tree (deferred, so their _ready has set its sizes)
## and again when their viewport is resized. A script that sets a font size later is seen as the
## control's new own size (a font size override is a theme change, which queues the control).

## Font-size theme items raised per control class (RichTextLabel has one per style).
const RICH_SIZES: Array[StringName] = [&"normal_font_size", &"bold_font_size", &"italics_font_size",
	&"bold_italics_font_size", &"mono_font_size"]
const OWN := &"_readable_own"  # meta: item -> the control's own override (-1 = none)
const SET := &"_readable_set"  # meta: item -> the value this script set

var _pending: Array[Control] = []
var _viewports := {}  # Viewport -> true: viewports whose size_changed is connected


func _ready() -> void:
	get_tree().node_added.connect(_on_node_added)
	_watch(get_viewport())


func _on_node_added(node: Node) -> void:
	if node is Viewport:
		_watch(node)
	elif _concerns(node):
		_queue(node)
		# A script that sets a font size later (history lines, the tribute panel's fit) is a
		# theme change: the floor is applied again.
		var again := _queue.bind(node)
		if not node.is_connected(&"theme_changed", again):  # entering the tree again (reparented)
			node.connect(&"theme_changed", again)


func _queue(c: Control) -> void:
	if _pending.is_empty():
		_flush.call_deferred()
	if not c in _pending:
		_pending.append(c)


func _watch(vp: Viewport) -> void:
	if _viewports.has(vp):
		return
	_viewports[vp] = true
	var on_resized := _on_resized.bind(vp)
	vp.size_changed.connect(on_resized)
	# A viewport may come back (a popup's window moves with its control): watched anew then.
	vp.tree_exited.connect(func() -> void:
		_viewports.erase(vp)
		vp.size_changed.disconnect(on_resized), CONNECT_ONE_SHOT)


func _flush() -> void:
	var batch := _pending
	_pending = []
	for c in batch:
		if is_instance_valid(c) and c.is_inside_tree():
			apply(c)


func _on_resized(vp: Viewport) -> void:
	if not is_instance_valid(vp):
		return
	for n in vp.find_children("*", "Control", true, false):
		if _concerns(n):
			apply(n)


static func _concerns(node: Node) -> bool:
	return node is Label or node is BaseButton or node is LineEdit or node is RichTextLabel or node is Slider


## Applies the floors of the view `c` is in (or removes them off a phone).
static func apply(c: Control) -> void:
	var view := c.get_viewport().get_visible_rect().size
	var items: Array[StringName] = [&"font_size"]
	if c is RichTextLabel:
		items = RICH_SIZES
	for item in items:
		_floor_font(c, item, UiLayout.text_floor(view))
	if c is BaseButton or c is LineEdit or c is Slider:
		_floor_height(c, UiLayout.tap_floor(view))


static func _floor_font(c: Control, item: StringName, floor_size: int) -> void:
	var own: Dictionary = c.get_meta(OWN, {})
	var mine: Dictionary = c.get_meta(SET, {})
	var current := c.get_theme_font_size(item) if c.has_theme_font_size_override(item) else -1
	if not mine.has(item) or current != mine[item]:
		own[item] = current  # not ours: the scene's or a script's own size (-1: the theme's)
	# The theme's size, noted while no override hides it (removing ours to look would be a theme
	# change, i.e. a loop).
	var theme_key := StringName("theme:" + item)
	if current < 0:
		own[theme_key] = c.get_theme_font_size(item)
	var base: int = own[item] if own[item] >= 0 else int(own.get(theme_key, floor_size))
	var want: int = own[item] if base >= floor_size else floor_size
	# Written only when it changes: each write is a theme change, which brings the control back here.
	if want != (c.get_theme_font_size(item) if c.has_theme_font_size_override(item) else -1):
		if want >= 0:
			c.add_theme_font_size_override(item, want)
		else:
			c.remove_theme_font_size_override(item)
	mine[item] = want
	c.set_meta(OWN, own)
	c.set_meta(SET, mine)


static func _floor_height(c: Control, floor_h: float) -> void:
	var own: Dictionary = c.get_meta(OWN, {})
	var mine: Dictionary = c.get_meta(SET, {})
	if not mine.has(&"height") or c.custom_minimum_size.y != mine[&"height"]:
		own[&"height"] = c.custom_minimum_size.y
	c.custom_minimum_size.y = maxf(own[&"height"], floor_h)
	mine[&"height"] = c.custom_minimum_size.y
	c.set_meta(OWN, own)
	c.set_meta(SET, mine)
