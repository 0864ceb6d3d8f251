package messages

// GetPermissions asks what Use my apps' helper finds it has on this
// computer (a display and the accessibility bus on Linux, Accessibility and
// Screen Recording on macOS). It never prompts.
type GetPermissions struct{}

// RequestPermissions asks the system, through the helper, for what Use my
// apps lacks (on macOS the system's own prompts). Only with no session open.
type RequestPermissions struct{}

// Permissions answers GetPermissions and RequestPermissions.
type Permissions struct {
	Helper   string            `json:"helper"`             // the helper's path; "" when none was found
	Platform string            `json:"platform,omitempty"` // "macos", "linux-x11"
	Ready    bool              `json:"ready"`              // every check passed
	Checks   []PermissionCheck `json:"checks"`
	// Text is one sentence: what was found, and what to do next.
	Text string `json:"text"`
}

// PermissionCheck is one thing Use my apps needs.
type PermissionCheck struct {
	Name   string `json:"name"` // display, accessibility, screen_capture, input, …
	OK     bool   `json:"ok"`
	Detail string `json:"detail"` // one sentence
}

func (*Permissions) answer() {}
