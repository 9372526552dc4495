@tool
class_name PhoneProfile
extends Resource
## Readability floors for phone-shaped screens (issue 27): no text smaller than `text_floor` and no
## button, check box, slider or text field lower than `tap_floor`, in layout pixels (lp). Saved as
## res://resources/style/phone_profile.tres; the Readability autoload raises whatever a screen or
## the theme sets below these on a phone, so screens keep their desktop sizes elsewhere.
##
## How the floors are derived: the project stretches canvas items from a 1280×720 base with aspect
## "expand", so a 2340×1080 phone shows a 1560×720 lp view at min(2340/1280, 1080/720) = 1.5 px
## per lp. Such a phone has about 400 ppi, i.e. 2.5 px per dp (Android's dp is 1/160 inch), so
## 1 lp ≈ 1.5 / 2.5 = 0.6 dp: 12 dp text needs 20 lp and a 48 dp tap target 80 lp.
## (tests/godot/ui/test_phone_readability.gd checks the dp requirement itself, not these numbers.)

const DEFAULT_PATH := "res://resources/style/phone_profile.tres"

## A view at least this wide for its height (lp) is phone-shaped (19.5:9 ≈ 2.17; 16:9 ≈ 1.78 and
## 4:3 are not). A mobile device that is not a tablet (UiLayout.is_tablet) is a phone at any shape.
@export_range(1.5, 3.0, 0.01) var min_aspect := 1.9
## Smallest font size on a phone (12 dp at 2340×1080).
@export_range(8, 48, 1, "suffix:lp") var text_floor := 20
## Smallest height of anything tapped on a phone (48 dp at 2340×1080).
@export_range(24, 160, 1, "suffix:lp") var tap_floor := 80

static var _current: PhoneProfile


static func current() -> PhoneProfile:
	if _current == null:
		_current = load(DEFAULT_PATH) as PhoneProfile
		if _current == null:
			push_error("PhoneProfile: %s is not a PhoneProfile" % DEFAULT_PATH)
			_current = PhoneProfile.new()
	return _current
