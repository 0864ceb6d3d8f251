package protocol

import (
	"errors"
	"fmt"
)

// Code is a stable machine code for a refusal or failure.
type Code string

// Codes a helper returns. They are part of the protocol: never rename one.
const (
	CodeBadRequest          Code = "bad_request"          // the request is not one the helper accepts
	CodeUnsupportedVersion  Code = "unsupported_version"  // helper and buddi speak different versions
	CodeUnsupportedPlatform Code = "unsupported_platform" // no computer control on this system
	CodeNoDisplay           Code = "no_display"           // no display or window server to work in
	CodeNoAccessibility     Code = "no_accessibility"     // the accessibility bus or permission is missing
	CodeNoScreenCapture     Code = "no_screen_capture"    // the screen-recording permission is missing
	CodeNoFocusedWindow     Code = "no_focused_window"    // no window has keyboard focus
	CodeWrongApp            Code = "wrong_app"            // the focused window belongs to another app
	CodeFocusChanged        Code = "focus_changed"        // not the window that was observed
	CodeNoTree              Code = "no_tree"              // the window exposes no accessibility tree
	CodeTargetGone          Code = "target_gone"          // the element is gone, changed or in another window
	CodeTargetOffscreen     Code = "target_offscreen"     // no visible point of the element to click
	CodeOutsideWindow       Code = "outside_window"       // a pixel outside the window
	CodeScreenshotChanged   Code = "screenshot_changed"   // the window's pixels changed since the observation
	CodeSecureField         Code = "secure_field"         // a password field: never filled
	CodeNotEditable         Code = "not_editable"         // fill on something that takes no text
	CodeKeyNotAllowed       Code = "key_not_allowed"      // a key or character outside the allowed set
	CodeAppNotFound         Code = "app_not_found"        // no installed app by that id or name
	CodeAppAmbiguous        Code = "app_ambiguous"        // several installed apps have that name
	CodeAppSearchTimeout    Code = "app_search_timeout"   // the name search took more than five seconds
	CodeAppNotReady         Code = "app_not_ready"        // opened, but its window has not come forward
	CodeLaunchFailed        Code = "launch_failed"        // the app or browser could not be started
	CodeBadURL              Code = "bad_url"              // not an absolute http or https URL
	CodeInputUncertain      Code = "input_uncertain"      // input failed part-way: it may have happened
	CodeCaptureFailed       Code = "capture_failed"       // the window could not be read or captured
	CodeHelperFailed        Code = "helper_failed"        // the helper failed before any input
)

// Codes the Client returns about the helper process itself.
const (
	CodeHelperMissing   Code = "helper_missing"   // the helper binary cannot be run
	CodeHelperTimeout   Code = "helper_timeout"   // no answer within the call's time
	CodeHelperCrashed   Code = "helper_crashed"   // it exited without a clean answer
	CodeHelperMalformed Code = "helper_malformed" // its answer is not a valid response
	CodeHelperOversized Code = "helper_oversized" // its answer exceeds MaxResponseBytes
	CodeCancelled       Code = "cancelled"        // the caller cancelled the call
)

var helperCodes = map[Code]bool{
	CodeBadRequest: true, CodeUnsupportedVersion: true, CodeUnsupportedPlatform: true,
	CodeNoDisplay: true, CodeNoAccessibility: true, CodeNoScreenCapture: true,
	CodeNoFocusedWindow: true, CodeWrongApp: true, CodeFocusChanged: true, CodeNoTree: true,
	CodeTargetGone: true, CodeTargetOffscreen: true, CodeOutsideWindow: true,
	CodeScreenshotChanged: true, CodeSecureField: true, CodeNotEditable: true,
	CodeKeyNotAllowed: true, CodeAppNotFound: true, CodeAppAmbiguous: true,
	CodeAppSearchTimeout: true, CodeAppNotReady: true, CodeLaunchFailed: true,
	CodeBadURL: true, CodeInputUncertain: true, CodeCaptureFailed: true, CodeHelperFailed: true,
}

// HelperCode reports whether a helper may send c (the client-side codes are
// the Client's alone).
func HelperCode(c Code) bool { return helperCodes[c] }

// Error is a refusal or failure: a stable Code and one sentence for a person
// that says what to do next. Nothing was typed or clicked unless
// InputUncertain is set.
type Error struct {
	Code           Code    `json:"code"`
	Message        string  `json:"message"`
	Detail         string  `json:"detail,omitempty"`          // the underlying cause, for logs and the owner
	Window         *Window `json:"window,omitempty"`          // the window found instead (wrong_app, focus_changed)
	Candidates     []App   `json:"candidates,omitempty"`      // app_ambiguous: the matches
	InputUncertain bool    `json:"input_uncertain,omitempty"` // the input may have happened
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Detail)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error with the same code, so
// errors.Is(err, &protocol.Error{Code: protocol.CodeFocusChanged}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error) //nolint:errorlint // Is compares the target itself
	return ok && t.Code == e.Code
}

// Errorf builds an *Error whose message is the formatted sentence.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetail returns e with the cause's text as its detail, bounded.
func (e *Error) WithDetail(cause error) *Error {
	if cause != nil {
		e.Detail = Clean(cause.Error(), MaxDetailRunes)
	}
	return e
}

// CodeOf returns the code of the *Error anywhere in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
