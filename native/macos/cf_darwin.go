package macos

// CoreFoundation.
var (
	cfRelease                     func(uintptr)
	cfRetain                      func(uintptr) uintptr
	cfGetTypeID                   func(uintptr) uintptr
	cfStringGetTypeID             func() uintptr
	cfArrayGetTypeID              func() uintptr
	cfBooleanGetTypeID            func() uintptr
	cfNumberGetTypeID             func() uintptr
	cfStringCreateWithCString     func(alloc uintptr, s string, enc uint32) uintptr
	cfStringGetLength             func(uintptr) int
	cfStringGetMaximumSizeForEnc  func(length int, enc uint32) int
	cfStringGetCString            func(s uintptr, buf *byte, size int, enc uint32) bool
	cfArrayGetCount               func(uintptr) int
	cfArrayGetValueAtIndex        func(uintptr, int) uintptr
	cfArrayCreate                 func(alloc uintptr, values *uintptr, n int, callbacks uintptr) uintptr
	cfBooleanGetValue             func(uintptr) bool
	cfNumberGetValue              func(n uintptr, typ int, out *int64) bool
	cfDictionaryCreate            func(alloc uintptr, keys, values *uintptr, n int, kcb, vcb uintptr) uintptr
	cfDictionaryGetValue          func(d, key uintptr) uintptr
	kCFBooleanTrue                uintptr
	kCFTypeArrayCallBacks         uintptr
	kCFTypeDictionaryKeyCallBacks uintptr
	kCFTypeDictionaryValueCallBks uintptr
)

const (
	utf8Encoding     = 0x08000100 // kCFStringEncodingUTF8
	cfNumberSInt64   = 4          // kCFNumberSInt64Type
	maxCFStringBytes = 64 << 10
)

func bindCF() error {
	b := open(coreFoundationPath)
	b.fn(&cfRelease, "CFRelease")
	b.fn(&cfRetain, "CFRetain")
	b.fn(&cfGetTypeID, "CFGetTypeID")
	b.fn(&cfStringGetTypeID, "CFStringGetTypeID")
	b.fn(&cfArrayGetTypeID, "CFArrayGetTypeID")
	b.fn(&cfBooleanGetTypeID, "CFBooleanGetTypeID")
	b.fn(&cfNumberGetTypeID, "CFNumberGetTypeID")
	b.fn(&cfStringCreateWithCString, "CFStringCreateWithCString")
	b.fn(&cfStringGetLength, "CFStringGetLength")
	b.fn(&cfStringGetMaximumSizeForEnc, "CFStringGetMaximumSizeForEncoding")
	b.fn(&cfStringGetCString, "CFStringGetCString")
	b.fn(&cfArrayGetCount, "CFArrayGetCount")
	b.fn(&cfArrayGetValueAtIndex, "CFArrayGetValueAtIndex")
	b.fn(&cfArrayCreate, "CFArrayCreate")
	b.fn(&cfBooleanGetValue, "CFBooleanGetValue")
	b.fn(&cfNumberGetValue, "CFNumberGetValue")
	b.fn(&cfDictionaryCreate, "CFDictionaryCreate")
	b.fn(&cfDictionaryGetValue, "CFDictionaryGetValue")
	kCFBooleanTrue = deref(b.variable("kCFBooleanTrue"))
	kCFTypeArrayCallBacks = b.variable("kCFTypeArrayCallBacks")
	kCFTypeDictionaryKeyCallBacks = b.variable("kCFTypeDictionaryKeyCallBacks")
	kCFTypeDictionaryValueCallBks = b.variable("kCFTypeDictionaryValueCallBacks")
	return b.err
}

// strings made once: attribute names and keys never change.
var cfStrings = map[string]uintptr{}

// cfstr returns a CFString for s, kept for the process's life.
func cfstr(s string) uintptr {
	if ref, ok := cfStrings[s]; ok {
		return ref
	}
	ref := cfStringCreateWithCString(0, s, utf8Encoding)
	cfStrings[s] = ref
	return ref
}

// newCFString returns a CFString the caller releases.
func newCFString(s string) uintptr { return cfStringCreateWithCString(0, s, utf8Encoding) }

func isString(ref uintptr) bool { return ref != 0 && cfGetTypeID(ref) == cfStringGetTypeID() }
func isArray(ref uintptr) bool  { return ref != 0 && cfGetTypeID(ref) == cfArrayGetTypeID() }
func isBool(ref uintptr) bool   { return ref != 0 && cfGetTypeID(ref) == cfBooleanGetTypeID() }
func isNumber(ref uintptr) bool { return ref != 0 && cfGetTypeID(ref) == cfNumberGetTypeID() }

// goString reads a CFString (or a toll-free bridged NSString), at most
// maxCFStringBytes of it.
func goString(ref uintptr) string {
	if !isString(ref) {
		return ""
	}
	n := cfStringGetLength(ref)
	size := min(cfStringGetMaximumSizeForEnc(n, utf8Encoding)+1, maxCFStringBytes)
	if size <= 1 {
		return ""
	}
	buf := make([]byte, size)
	if !cfStringGetCString(ref, &buf[0], size, utf8Encoding) {
		// Too long for the bound: read the first part rune-safely.
		return ""
	}
	for i, c := range buf {
		if c == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}

// goInt reads a CFNumber.
func goInt(ref uintptr) (int64, bool) {
	if !isNumber(ref) {
		return 0, false
	}
	var v int64
	ok := cfNumberGetValue(ref, cfNumberSInt64, &v)
	return v, ok
}

// arrayOf builds a CFArray of refs, which the caller releases.
func arrayOf(refs []uintptr) uintptr {
	if len(refs) == 0 {
		return cfArrayCreate(0, nil, 0, kCFTypeArrayCallBacks)
	}
	return cfArrayCreate(0, &refs[0], len(refs), kCFTypeArrayCallBacks)
}

// items returns the elements of a CFArray (not retained: valid while the
// array is).
func items(arr uintptr, limit int) []uintptr {
	if !isArray(arr) {
		return nil
	}
	n := min(cfArrayGetCount(arr), limit)
	out := make([]uintptr, n)
	for i := range n {
		out[i] = cfArrayGetValueAtIndex(arr, i)
	}
	return out
}

// dictOf builds a one-entry CFDictionary, which the caller releases.
func dictOf(key, value uintptr) uintptr {
	return cfDictionaryCreate(0, &key, &value, 1, kCFTypeDictionaryKeyCallBacks, kCFTypeDictionaryValueCallBks)
}
