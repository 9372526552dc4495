class_name FeltSeal
extends Control
## The seal watermark on the table's cloth (the visual brief: "a seal watermark at 6% opacity"):
## a square seal with a rounded double frame and the game's name, 掼 on the right and 蛋 on the
## left as a seal is read, each drawn tall in its half. The felt bakes it with the cloth (Felt puts
## it in its bake, centred on the oval), so it is drawn once per layout, never per frame. Colour
## and size: TableStyle "Table" (seal_color, seal_size).

## The characters, right to left.
const NAME := ["掼", "蛋"]
## The glyphs' stretch upward, so two characters fill a square as a seal's do.
const TALL := 1.75

var font: Font = preload("res://fonts/guandan_sans_bold.otf")


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE


## Lays the seal out at `centre` with side `side` (the bake's pixels), coloured `color`.
func place(centre: Vector2, side: float, color: Color) -> void:
	size = Vector2(side, side)
	position = centre - size / 2.0
	modulate = color
	visible = side >= 8.0 and color.a > 0.0
	queue_redraw()


func _draw() -> void:
	var side := size.x
	# Drawn white: `modulate` gives it the style's colour and strength in one place.
	var frame := StyleBoxFlat.new()
	frame.bg_color = Color(0, 0, 0, 0)
	frame.draw_center = false
	frame.border_color = Color.WHITE
	frame.set_border_width_all(maxi(int(side * 0.055), 1))
	frame.set_corner_radius_all(int(side * 0.08))
	draw_style_box(frame, Rect2(Vector2.ZERO, size))
	var inner := Rect2(Vector2.ONE * side * 0.1, Vector2.ONE * side * 0.8)
	draw_rect(inner, Color.WHITE, false, maxf(side * 0.018, 1.0))
	# Each character in its half of the inner square, stretched up to fill it.
	var fs := int(side * 0.36)
	var ascent := font.get_ascent(fs)
	var glyph_h := font.get_height(fs)
	for i in NAME.size():
		var w := font.get_string_size(NAME[i], HORIZONTAL_ALIGNMENT_LEFT, -1, fs).x
		var half := Rect2(inner.position + Vector2(inner.size.x * (0.5 - 0.5 * i), 0.0), Vector2(inner.size.x / 2.0, inner.size.y))
		var scale := Vector2(1.0, minf(TALL, half.size.y * 0.92 / glyph_h))
		var top := half.get_center().y - glyph_h * scale.y / 2.0
		draw_set_transform(Vector2(half.get_center().x - w / 2.0, top), 0.0, scale)
		draw_string(font, Vector2(0.0, ascent), NAME[i], HORIZONTAL_ALIGNMENT_LEFT, -1, fs, Color.WHITE)
	draw_set_transform(Vector2.ZERO)
