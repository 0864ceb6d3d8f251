// Package protocol is the one bounded protocol between buddi and a native
// computer-control helper ("Use my apps"): the typed requests and answers, the
// limits on each, their decoders, and a Client that runs a helper binary for
// one call.
//
// The wire is one JSON object in and one JSON object out. buddi writes a
// Request (version V, the Call, the helper's own time budget and the
// arguments of that call) to the helper's standard input and closes it; the
// helper writes one Response to its standard output and exits 0. A Response
// carries either an Error (a stable Code and one sentence) or exactly the
// result of the call: an Observation of the focused window (its accessibility
// tree with refs such as ax12, bounded text, secure fields masked, and a
// screenshot of that window only), an InputResult, Opened, Navigated,
// Permissions, or the App that find found by name without starting it. There is no call for scripts, arbitrary hotkeys, the clipboard
// or files.
//
// A helper's output is untrusted: DecodeResponse refuses anything larger than
// MaxResponseBytes, anything that is not exactly one JSON object of the
// expected shape, unknown fields, unknown codes, refs that are not ax<n> or
// repeat, text beyond its limits and screenshots whose bytes do not match
// their stated format and size. The Client turns a helper that is late,
// crashes, or writes too much or malformed output into an *Error with a
// client-side code (CodeHelperTimeout, CodeHelperCrashed, …); for calls that
// send input those errors say the input may have happened (InputUncertain),
// since nobody can tell whether the helper acted before it failed.
//
// Inputs are guarded: click, fill and press carry the app and the window
// fingerprint of the observation they act on, and a target carries the
// element's locator and fingerprint (or, for a pixel, the screenshot hash).
// The helper checks them again against the focused window before any input
// and refuses, typing nothing, when focus moved (CodeFocusChanged), the
// element changed (CodeTargetGone) or the window's pixels changed
// (CodeScreenshotChanged).
//
// The package imports nothing else of buddi's, so that drivers and helpers
// can both depend on it.
//
// Concurrency: the types are plain values. A Client is immutable once built
// and may run calls from several goroutines; each call runs its own helper
// process in its own process group, reads its output on one goroutine, and
// ends with the process reaped. Cancelling the call's context, or its
// timeout passing, kills the whole process group before Do returns.
package protocol
