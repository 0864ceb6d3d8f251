package macos

import (
	"fmt"
	"structs"
	"unsafe"
)

// The Accessibility API (HIServices, in ApplicationServices).
var (
	axUIElementCreateSystemWide          func() uintptr
	axUIElementCreateApplication         func(pid int32) uintptr
	axUIElementCopyAttributeValue        func(el, attr uintptr, out *uintptr) int32
	axUIElementCopyMultipleAttributeVals func(el, attrs uintptr, options uint32, out *uintptr) int32
	axUIElementCopyAttributeValues       func(el, attr uintptr, index, max int, out *uintptr) int32
	axUIElementGetAttributeValueCount    func(el, attr uintptr, out *int) int32
	axUIElementSetAttributeValue         func(el, attr, value uintptr) int32
	axUIElementCopyActionNames           func(el uintptr, out *uintptr) int32
	axUIElementPerformAction             func(el, action uintptr) int32
	axUIElementGetPid                    func(el uintptr, pid *int32) int32
	axUIElementSetMessagingTimeout       func(el uintptr, seconds float32) int32
	axValueGetType                       func(v uintptr) uint32
	axValueGetValue                      func(v uintptr, typ uint32, out unsafe.Pointer) bool
	axValueCreate                        func(typ uint32, value unsafe.Pointer) uintptr
	axValueGetTypeID                     func() uintptr
	axIsProcessTrusted                   func() bool
	axIsProcessTrustedWithOptions        func(options uintptr) bool
	axUIElementGetWindow                 func(el uintptr, id *uint32) int32 // private; absent on some systems
	haveGetWindow                        bool
)

// AXValue types and errors.
const (
	axValueCGPoint            = 1
	axValueCGSize             = 2
	axValueCFRange            = 4
	axValueAXError            = 5
	axSuccess                 = 0
	axErrActionUnsupported    = -25206
	axErrNoValue              = -25212
	axErrAttributeUnsupported = -25205
)

// The C structs, laid out as the system lays them out.
type (
	cgPoint struct {
		_    structs.HostLayout
		X, Y float64
	}
	cgSize struct {
		_    structs.HostLayout
		W, H float64
	}
	cfRange struct {
		_                structs.HostLayout
		Location, Length int
	}
)

func bindAX() error {
	b := open(appServicesPath)
	b.fn(&axUIElementCreateSystemWide, "AXUIElementCreateSystemWide")
	b.fn(&axUIElementCreateApplication, "AXUIElementCreateApplication")
	b.fn(&axUIElementCopyAttributeValue, "AXUIElementCopyAttributeValue")
	b.fn(&axUIElementCopyMultipleAttributeVals, "AXUIElementCopyMultipleAttributeValues")
	b.fn(&axUIElementCopyAttributeValues, "AXUIElementCopyAttributeValues")
	b.fn(&axUIElementGetAttributeValueCount, "AXUIElementGetAttributeValueCount")
	b.fn(&axUIElementSetAttributeValue, "AXUIElementSetAttributeValue")
	b.fn(&axUIElementCopyActionNames, "AXUIElementCopyActionNames")
	b.fn(&axUIElementPerformAction, "AXUIElementPerformAction")
	b.fn(&axUIElementGetPid, "AXUIElementGetPid")
	b.fn(&axUIElementSetMessagingTimeout, "AXUIElementSetMessagingTimeout")
	b.fn(&axValueGetType, "AXValueGetType")
	b.fn(&axValueGetValue, "AXValueGetValue")
	b.fn(&axValueCreate, "AXValueCreate")
	b.fn(&axValueGetTypeID, "AXValueGetTypeID")
	b.fn(&axIsProcessTrusted, "AXIsProcessTrusted")
	b.fn(&axIsProcessTrustedWithOptions, "AXIsProcessTrustedWithOptions")
	haveGetWindow = b.optional(&axUIElementGetWindow, "_AXUIElementGetWindow")
	return b.err
}

// axError is a failed AX call.
type axError struct {
	call string
	code int32
}

func (e axError) Error() string { return fmt.Sprintf("%s failed with AXError %d", e.call, e.code) }

// attr copies one attribute; the caller releases a non-zero result.
func attr(el uintptr, name string) (uintptr, error) {
	var out uintptr
	if code := axUIElementCopyAttributeValue(el, cfstr(name), &out); code != axSuccess {
		return 0, axError{"reading " + name, code}
	}
	return out, nil
}

// attrString reads a string attribute, "" when it has none.
func attrString(el uintptr, name string) string {
	v, err := attr(el, name)
	if err != nil {
		return ""
	}
	defer cfRelease(v)
	return goString(v)
}

// attrBool reads a boolean attribute.
func attrBool(el uintptr, name string) bool {
	v, err := attr(el, name)
	if err != nil {
		return false
	}
	defer cfRelease(v)
	return isBool(v) && cfBooleanGetValue(v)
}

func isAXValue(ref uintptr) bool { return ref != 0 && cfGetTypeID(ref) == axValueGetTypeID() }

// point and size read an AXValue.
func pointOf(v uintptr) (cgPoint, bool) {
	var p cgPoint
	return p, isAXValue(v) && axValueGetType(v) == axValueCGPoint && axValueGetValue(v, axValueCGPoint, unsafe.Pointer(&p))
}

func sizeOf(v uintptr) (cgSize, bool) {
	var s cgSize
	return s, isAXValue(v) && axValueGetType(v) == axValueCGSize && axValueGetValue(v, axValueCGSize, unsafe.Pointer(&s))
}

// children copies at most limit of el's children; the caller releases the
// returned array.
func children(el uintptr, limit int) (uintptr, []uintptr, error) {
	var n int
	if code := axUIElementGetAttributeValueCount(el, cfstr("AXChildren"), &n); code != axSuccess {
		if code == axErrNoValue || code == axErrAttributeUnsupported {
			return 0, nil, nil
		}
		return 0, nil, axError{"counting children", code}
	}
	if n == 0 {
		return 0, nil, nil
	}
	var arr uintptr
	if code := axUIElementCopyAttributeValues(el, cfstr("AXChildren"), 0, min(n, limit), &arr); code != axSuccess {
		return 0, nil, axError{"reading children", code}
	}
	return arr, items(arr, limit), nil
}
