package messages

import "fmt"

// The owner API bodies of the dashboard's routes.

// MaxURLChars bounds an address the owner types.
const MaxURLChars = 8 << 10

// Snapshot is the body as a request for a session's snapshot.
func (b *OwnerBody) Snapshot() (any, *Error) {
	return &SnapshotOf{Conversation: b.Conversation}, b.needConversation()
}

// ChangeSettings is the body as a change of the browser settings.
func (b *OwnerBody) ChangeSettings() (any, *Error) {
	m := &ChangeSettings{Mode: b.Mode, Channel: b.Channel, Headless: b.Headless,
		SiteApproval: b.SiteApproval, AirGap: b.AirGap, BrowserApp: b.BrowserApp, AllowedApps: b.AllowedApps}
	if m.Empty() {
		return nil, &Error{Code: CodeBadInput, Message: "Name a setting to change: mode, channel, headless, siteApproval, airGap, browserApp or allowedApps."}
	}
	if s := m.SiteApproval; s != nil && *s != "off" && *s != "ask" {
		return nil, Errorf(CodeBadInput, "siteApproval %q is not a setting; use ask or off.", Clip(*s, 60))
	}
	return m, nil
}

// OpenBrowser is the body as the owner opening an address in a browser of
// their own.
func (b *OwnerBody) OpenBrowser() (any, *Error) {
	if b.URL == "" || len(b.URL) > MaxURLChars {
		return nil, Errorf(CodeBadInput, "Type the address to open, an http or https URL of at most %d characters.", MaxURLChars)
	}
	in := &ActInput{Action: "navigate", URL: b.URL}
	if e := ValidateAct(in, false); e != nil {
		return nil, e
	}
	if b.Conversation != "" {
		if e := CheckConversation(b.Conversation); e != nil {
			return nil, e
		}
	}
	return &OpenBrowser{Conversation: b.Conversation, URL: b.URL}, nil
}

// RemoveDevice is the body as signing a device out.
func (b *OwnerBody) RemoveDevice() (any, *Error) {
	if b.ID == "" {
		return nil, &Error{Code: CodeBadInput, Message: "Name the device to sign out: {\"id\": \"…\"}."}
	}
	return &RemoveDevice{ID: b.ID}, nil
}

// SessionsOpen is the refusal of a settings change while n sessions run.
func SessionsOpen(n int) *Error {
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return CodeSessionsOpen.Err(n, plural)
}

// Locked is the refusal of a change to a setting the environment fixes.
func Locked(setting, variable string) *Error { return CodeLocked.Err(setting, variable) }

// NotAvailable is the refusal of a mode this install does not offer.
func NotAvailable(label, why string) *Error {
	return &Error{Code: CodeNotAvailable, Message: fmt.Sprintf("%s is not available on this install yet: %s", label, why)}
}
