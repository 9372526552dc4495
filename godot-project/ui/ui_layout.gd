class_name UiLayout
extends RefCounted
## Layout decisions that depend on the device: tablet layout, card size, DPI.


## Tablet layout (larger cards, wider hand): a big touch screen, or a squarish (4:3-like) view.
static func is_tablet(view_size: Vector2) -> bool:
	if view_size.x / maxf(view_size.y, 1.0) < 1.55:
		return true
	if OS.has_feature("mobile"):
		var dpi := float(DisplayServer.screen_get_dpi())
		var px := Vector2(DisplayServer.screen_get_size())
		if dpi > 0.0 and px.length() / dpi >= 7.0:
			return true
	return false


## The hand's card height for a view of this size (before the hand shrinks it for many cards).
static func hand_card_height(view_size: Vector2) -> float:
	var k := float(Settings.get_value(&"card_size"))
	var h := view_size.y * (0.25 if is_tablet(view_size) else 0.215)
	return clampf(h, 110.0, 260.0) * k


## Scale for desktop windows on high-DPI screens (1 elsewhere): the window is enlarged by it so
## the game keeps its physical size.
static func desktop_dpi_scale() -> float:
	if OS.has_feature("mobile") or DisplayServer.get_name() == "headless":
		return 1.0
	var scale := DisplayServer.screen_get_scale()
	var dpi := float(DisplayServer.screen_get_dpi())
	if dpi >= 144.0:
		scale = maxf(scale, dpi / 96.0)
	return clampf(scale, 1.0, 3.0)


## Phone-shaped view (PhoneProfile.min_aspect or wider), or a mobile device that is not a tablet:
## the Readability autoload then applies the phone floors. A desktop window that wide gets them
## too, which costs nothing and lets a resized window (and the headless tests) show the phone look.
static func is_phone(view_size: Vector2) -> bool:
	if view_size.x / maxf(view_size.y, 1.0) >= PhoneProfile.current().min_aspect:
		return true
	return OS.has_feature("mobile") and not is_tablet(view_size)


## The least size small table text (the card counter, a badge's second line) is drawn at on the
## screen, in screen pixels (issue 38: 9–11 px at 1024×768, where the window's stretch shows the
## 1280-wide design at 0.8).
const MIN_SCREEN_TEXT := 14


## The least font size, in `item`'s view units, that `item`'s window draws at MIN_SCREEN_TEXT
## screen pixels or more — at most the phone's floor (PhoneProfile.text_floor): a window shrunk
## far below the design (a tiny or headless one) keeps a layout rather than huge text.
static func readable_font_size(item: CanvasItem) -> int:
	var scale := item.get_viewport().get_final_transform().get_scale().y if item.is_inside_tree() else 1.0
	return mini(ceili(MIN_SCREEN_TEXT / maxf(scale, 0.01) - 0.01), PhoneProfile.current().text_floor)


## The smallest font size for a view of this size: PhoneProfile.text_floor on a phone, else 0.
## Code that fits text by measuring it (the tribute lines) starts from here.
static func text_floor(view_size: Vector2) -> int:
	return PhoneProfile.current().text_floor if is_phone(view_size) else 0


## The smallest height of a tap target for a view of this size: PhoneProfile.tap_floor on a
## phone, else 0. Layouts with fixed bands (the table's top bar and action bar) make room for it.
static func tap_floor(view_size: Vector2) -> float:
	return float(PhoneProfile.current().tap_floor) if is_phone(view_size) else 0.0
