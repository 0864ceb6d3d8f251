// Package macos is the computer-control helper for macOS 14 and newer: the
// protocol of native/protocol over the Accessibility API (AXUIElement) for
// the tree and its press actions, CoreGraphics for the window's picture
// (CGWindowListCreateImage, that window only) and for OS mouse and
// keyboard events (CGEvent), NSWorkspace and LaunchServices to open apps
// and URLs, and Spotlight (MDQuery) to find an app by its name. The shared
// rules (what an observation keeps, the fingerprints, the refusals) live
// in native/helper; this package only reads and acts.
//
// It is Go with a pure-Go bridge to the system frameworks
// (github.com/ebitengine/purego and its objc package), so it builds from
// any machine with GOOS=darwin and needs neither cgo nor Xcode. The files
// that call the frameworks build only for darwin; the rest (key codes,
// roles, the Spotlight query, locators) is plain Go that tests run
// everywhere.
//
// The focused window is the system-wide focused application's AXFocusedWindow;
// its app is the running application's bundle id; its id is its CoreGraphics
// window number. Elements are located by their child-index path from that
// window, and checked against their fingerprint before any input. Clicks
// use AXPress where the element offers it and else a CGEvent click at its
// centre; fill focuses the field (AXFocused, else a click), selects its
// text through AXSelectedTextRange and types the value as CGEvent Unicode
// key events, never the clipboard. Secure text fields (AXSecureTextField)
// are masked and never filled.
//
// The probe reads AXIsProcessTrusted and CGPreflightScreenCaptureAccess,
// which never prompt; request_permissions asks with
// AXIsProcessTrustedWithOptions(prompt) and CGRequestScreenCaptureAccess.
// macOS charges the grants to the helper's code signature, or to the app
// that launched it: sign it ad hoc with a stable identifier (see the
// README) so that a rebuild from the same source keeps them.
//
// Concurrency: a Platform serves one call on the goroutine that runs it;
// the frameworks are loaded once, on first use.
package macos
