// Package linux is the computer-control helper for Linux desktops on X11:
// the protocol of native/protocol over AT-SPI on D-Bus for the
// accessibility tree and its actions, XTEST for pointer and keyboard input,
// and X11 for the focused window and its pixels. The shared rules (what
// an observation keeps, the fingerprints, the refusals) live in
// native/helper; this package only reads and acts.
//
// The focused window is X's input focus, walked up to its top-level client
// window. Its app is the installed desktop entry that _GTK_APPLICATION_ID,
// WM_CLASS or the process's executable names. Its tree is the top-level
// accessible of the app on the accessibility bus whose connection belongs
// to the window's _NET_WM_PID. Elements are located by their bus
// connection and object path, and a target is checked to lie under the
// window's frame before it is acted on. Clicks use the element's own
// action (click, press, activate…) and else an XTEST click at its centre;
// fill focuses the field through AT-SPI, removes its text with End and
// Backspace key events and types the value with XTEST, never the
// clipboard. Characters the keyboard map lacks get spare keycodes, which
// are left mapped afterwards. Apps are opened from their desktop entries'
// Exec lines, without a shell, in a session of their own; a URL opens by
// running the browser's Exec line with it.
//
// The probe says the mode can be offered only where there is an X display
// with XTEST and the accessibility bus answers. Wayland sessions without X
// are not supported.
//
// Concurrency: a Platform serves one call on one goroutine and holds one X
// connection and one bus connection, both closed by Close.
package linux
