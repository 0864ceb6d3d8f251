package macos

import (
	"errors"
	"image"
	"math"
	"structs"
	"unsafe"
)

type cgRect struct {
	_      structs.HostLayout
	Origin cgPoint
	Size   cgSize
}

// CoreGraphics.
var (
	cgWindowListCreateImage         func(bounds cgRect, list uint32, window uint32, opts uint32) uintptr
	cgWindowListCopyWindowInfo      func(opts uint32, relativeTo uint32) uintptr
	cgRectMakeWithDictionary        func(dict uintptr, out *cgRect) bool
	cgImageGetWidth                 func(uintptr) int
	cgImageGetHeight                func(uintptr) int
	cgImageRelease                  func(uintptr)
	cgColorSpaceCreateDeviceRGB     func() uintptr
	cgColorSpaceRelease             func(uintptr)
	cgBitmapContextCreate           func(data unsafe.Pointer, w, h, bits, row int, space uintptr, info uint32) uintptr
	cgContextDrawImage              func(ctx uintptr, rect cgRect, img uintptr)
	cgContextRelease                func(uintptr)
	cgEventCreateMouseEvent         func(src uintptr, typ uint32, at cgPoint, button uint32) uintptr
	cgEventCreateKeyboardEvent      func(src uintptr, key uint16, down bool) uintptr
	cgEventKeyboardSetUnicodeString func(ev uintptr, n int, s *uint16)
	cgEventSetFlags                 func(ev uintptr, flags uint64)
	cgEventPost                     func(tap uint32, ev uintptr)
	cgPreflightScreenCaptureAccess  func() bool
	cgRequestScreenCaptureAccess    func() bool
	haveWindowImage                 bool
)

const (
	windowListIncludingWindow = 1 << 3 // kCGWindowListOptionIncludingWindow
	windowListOnScreenOnly    = 1 << 0 // kCGWindowListOptionOnScreenOnly
	windowImageIgnoreFraming  = 1 << 0 // kCGWindowImageBoundsIgnoreFraming
	windowImageBestResolution = 1 << 3 // kCGWindowImageBestResolution
	premultipliedLastBig      = 1 | 4<<12
	eventLeftMouseDown        = 1
	eventLeftMouseUp          = 2
	eventMouseMoved           = 5
	mouseButtonLeft           = 0
	hidEventTap               = 0
)

func bindCG() error {
	b := open(coreGraphicsPath)
	// CGWindowListCreateImage is obsolete from the macOS 15 SDK on; where the
	// system no longer has it, observe says the window cannot be captured.
	haveWindowImage = b.optional(&cgWindowListCreateImage, "CGWindowListCreateImage")
	b.fn(&cgWindowListCopyWindowInfo, "CGWindowListCopyWindowInfo")
	b.fn(&cgRectMakeWithDictionary, "CGRectMakeWithDictionaryRepresentation")
	b.fn(&cgImageGetWidth, "CGImageGetWidth")
	b.fn(&cgImageGetHeight, "CGImageGetHeight")
	b.fn(&cgImageRelease, "CGImageRelease")
	b.fn(&cgColorSpaceCreateDeviceRGB, "CGColorSpaceCreateDeviceRGB")
	b.fn(&cgColorSpaceRelease, "CGColorSpaceRelease")
	b.fn(&cgBitmapContextCreate, "CGBitmapContextCreate")
	b.fn(&cgContextDrawImage, "CGContextDrawImage")
	b.fn(&cgContextRelease, "CGContextRelease")
	b.fn(&cgEventCreateMouseEvent, "CGEventCreateMouseEvent")
	b.fn(&cgEventCreateKeyboardEvent, "CGEventCreateKeyboardEvent")
	b.fn(&cgEventKeyboardSetUnicodeString, "CGEventKeyboardSetUnicodeString")
	b.fn(&cgEventSetFlags, "CGEventSetFlags")
	b.fn(&cgEventPost, "CGEventPost")
	b.fn(&cgPreflightScreenCaptureAccess, "CGPreflightScreenCaptureAccess")
	b.fn(&cgRequestScreenCaptureAccess, "CGRequestScreenCaptureAccess")
	return b.err
}

// captureWindow reads the pixels of one window, without its shadow, at the
// display's resolution.
func captureWindow(id uint32) (*image.RGBA, error) {
	if !haveWindowImage {
		return nil, errors.New("this macOS has no CGWindowListCreateImage")
	}
	null := cgRect{Origin: cgPoint{X: math.Inf(1), Y: math.Inf(1)}}
	img := cgWindowListCreateImage(null, windowListIncludingWindow, id, windowImageIgnoreFraming|windowImageBestResolution)
	if img == 0 {
		return nil, errors.New("the window server returned no image (is Screen Recording granted?)")
	}
	defer cgImageRelease(img)
	w, h := cgImageGetWidth(img), cgImageGetHeight(img)
	if w <= 0 || h <= 0 || w > 4*8192 || h > 4*8192 {
		return nil, errors.New("the window's image has no usable size")
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	space := cgColorSpaceCreateDeviceRGB()
	defer cgColorSpaceRelease(space)
	ctx := cgBitmapContextCreate(unsafe.Pointer(&out.Pix[0]), w, h, 8, out.Stride, space, premultipliedLastBig)
	if ctx == 0 {
		return nil, errors.New("no bitmap context for the window's image")
	}
	cgContextDrawImage(ctx, cgRect{Size: cgSize{W: float64(w), H: float64(h)}}, img)
	cgContextRelease(ctx)
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 0xff
	}
	return out, nil
}

// windowNumber finds the CoreGraphics number of the on-screen window of
// pid at bounds, for systems without _AXUIElementGetWindow.
func windowNumber(pid int32, at cgPoint, size cgSize) (uint32, bool) {
	list := cgWindowListCopyWindowInfo(windowListOnScreenOnly, 0)
	if list == 0 {
		return 0, false
	}
	defer cfRelease(list)
	for _, d := range items(list, 2000) {
		owner, _ := goInt(cfDictionaryGetValue(d, cfstr("kCGWindowOwnerPID")))
		var r cgRect
		if int32(owner) != pid || !cgRectMakeWithDictionary(cfDictionaryGetValue(d, cfstr("kCGWindowBounds")), &r) {
			continue
		}
		if math.Abs(r.Origin.X-at.X) < 1 && math.Abs(r.Origin.Y-at.Y) < 1 && math.Abs(r.Size.W-size.W) < 1 && math.Abs(r.Size.H-size.H) < 1 {
			n, ok := goInt(cfDictionaryGetValue(d, cfstr("kCGWindowNumber")))
			return uint32(n), ok
		}
	}
	return 0, false
}

// post sends one event to the system and releases it.
func post(ev uintptr) error {
	if ev == 0 {
		return errors.New("the event could not be created")
	}
	cgEventSetFlags(ev, 0) // no modifier the owner happens to hold
	cgEventPost(hidEventTap, ev)
	cfRelease(ev)
	return nil
}

// click moves the pointer to a global point and clicks the left button.
func click(at cgPoint) error {
	for _, typ := range []uint32{eventMouseMoved, eventLeftMouseDown, eventLeftMouseUp} {
		if err := post(cgEventCreateMouseEvent(0, typ, at, mouseButtonLeft)); err != nil {
			return err
		}
	}
	return nil
}

// pressKey presses and releases one virtual key.
func pressKey(key uint16) error {
	if err := post(cgEventCreateKeyboardEvent(0, key, true)); err != nil {
		return err
	}
	return post(cgEventCreateKeyboardEvent(0, key, false))
}

// typeRune sends one character as a Unicode key event, down and up.
func typeRune(r rune) error {
	if key, ok := runeKey(r); ok {
		return pressKey(key)
	}
	units := utf16Of(r)
	for _, down := range []bool{true, false} {
		ev := cgEventCreateKeyboardEvent(0, 0, down)
		if ev == 0 {
			return errors.New("the key event could not be created")
		}
		cgEventKeyboardSetUnicodeString(ev, len(units), &units[0])
		if err := post(ev); err != nil {
			return err
		}
	}
	return nil
}
