package macos

import (
	"context"

	"golang.org/x/sys/unix"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

// Probe reads what is granted with calls that never prompt:
// AXIsProcessTrusted and CGPreflightScreenCaptureAccess.
func (p *Platform) Probe(context.Context) protocol.Permissions {
	perm := protocol.Permissions{Platform: "macos"}
	version, _ := unix.Sysctl("kern.osproductversion")
	system := protocol.Check{Name: "system", OK: true, Detail: "macOS " + version + " is supported."}
	if err := p.ready(); err != nil {
		system = protocol.Check{Name: "system", Detail: helper.Sentence(err)}
		perm.Checks = []protocol.Check{system}
		return perm
	}
	access := protocol.Check{Name: "accessibility", OK: axIsProcessTrusted(), Detail: "Accessibility is granted."}
	if !access.OK {
		access.Detail = "Accessibility is not granted; press Request macOS permissions, then allow the helper (or the app that started buddi) in System Settings → Privacy & Security → Accessibility."
	}
	capture := protocol.Check{Name: "screen_capture", OK: cgPreflightScreenCaptureAccess() && haveWindowImage, Detail: "Screen Recording is granted."}
	switch {
	case !haveWindowImage:
		capture.Detail = "This macOS no longer offers the window capture the helper uses."
	case !capture.OK:
		capture.Detail = "Screen Recording is not granted; press Request macOS permissions, then allow it in System Settings → Privacy & Security → Screen & System Audio Recording, and restart buddi if macOS asks."
	}
	input := protocol.Check{Name: "input", OK: access.OK, Detail: "Mouse and keyboard events go out under the Accessibility grant."}
	if !input.OK {
		input.Detail = "Mouse and keyboard events need the Accessibility grant."
	}
	perm.Checks = []protocol.Check{system, access, capture, input}
	perm.Ready = access.OK && capture.OK && input.OK
	return perm
}

// RequestPermissions asks macOS to show its prompts for Accessibility and
// Screen Recording, then probes again. The answers come later, in System
// Settings.
func (p *Platform) RequestPermissions(ctx context.Context) protocol.Permissions {
	if p.ready() == nil {
		opts := dictOf(cfstr("AXTrustedCheckOptionPrompt"), kCFBooleanTrue)
		axIsProcessTrustedWithOptions(opts)
		cfRelease(opts)
		if !cgPreflightScreenCaptureAccess() {
			cgRequestScreenCaptureAccess()
		}
	}
	return p.Probe(ctx)
}
