package macos

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The frameworks the helper calls.
const (
	coreFoundationPath = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
	appServicesPath    = "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices"
	coreGraphicsPath   = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	coreServicesPath   = "/System/Library/Frameworks/CoreServices.framework/CoreServices"
	appKitPath         = "/System/Library/Frameworks/AppKit.framework/AppKit"
)

var (
	loadOnce sync.Once
	loadErr  error
)

// load opens the frameworks and binds every function once.
func load() error {
	loadOnce.Do(func() { loadErr = bindAll() })
	return loadErr
}

// binder binds functions of one framework, remembering the first failure.
type binder struct {
	lib uintptr
	err error
}

func open(path string) *binder {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return &binder{err: fmt.Errorf("opening %s: %w", path, err)}
	}
	return &binder{lib: h}
}

// fn binds the C function name to fptr.
func (b *binder) fn(fptr any, name string) {
	if b.err != nil {
		return
	}
	sym, err := purego.Dlsym(b.lib, name)
	if err != nil {
		b.err = fmt.Errorf("%s: %w", name, err)
		return
	}
	purego.RegisterFunc(fptr, sym)
}

// optional binds name when the system has it and reports whether it did.
func (b *binder) optional(fptr any, name string) bool {
	if b.err != nil {
		return false
	}
	sym, err := purego.Dlsym(b.lib, name)
	if err != nil {
		return false
	}
	purego.RegisterFunc(fptr, sym)
	return true
}

// variable returns the address of an exported variable.
func (b *binder) variable(name string) uintptr {
	if b.err != nil {
		return 0
	}
	sym, err := purego.Dlsym(b.lib, name)
	if err != nil {
		b.err = fmt.Errorf("%s: %w", name, err)
		return 0
	}
	return sym
}

// deref reads the pointer stored at addr (an exported CFTypeRef variable).
func deref(addr uintptr) uintptr {
	if addr == 0 {
		return 0
	}
	return **(**uintptr)(unsafe.Pointer(&addr))
}

func bindAll() error {
	for _, bind := range []func() error{bindCF, bindAX, bindCG, bindMD, bindObjC} {
		if err := bind(); err != nil {
			return err
		}
	}
	return nil
}
