package messages

import (
	"errors"
	"strings"
	"time"
)

// Kinds of audit lines.
const (
	AuditAct     = "act"     // an agent's tool call
	AuditControl = "control" // an owner's control, sign-in or pairing
)

// AuditOK is the outcome code of a call or control that succeeded.
const AuditOK Code = "ok"

// AuditRecord is one line of the audit trail: what an agent did, or what
// the owner decided, and how it ended. It holds names, refs, codes and
// URLs without their query, never a value typed, a token or a code.
type AuditRecord struct {
	At           time.Time `json:"at"`
	Kind         string    `json:"kind"`
	Agent        string    `json:"agent,omitempty"`
	Conversation string    `json:"conversation,omitempty"`
	// Action is the act's action (click, fill, status, task) or the
	// control's name (take_over, stop, sign_in).
	Action string `json:"action"`
	Target string `json:"target,omitempty"` // the element acted on: a ref, or how it was found
	// Steps are a script's actions, in order.
	Steps []string `json:"steps,omitempty"`
	Code  Code     `json:"code"` // AuditOK, or the refusal's code
	URL   string   `json:"url,omitempty"`
	// Detail is what a control decided: a site and its answer, the
	// settings changed, a device's label, a chat's name.
	Detail string `json:"detail,omitempty"`
}

// AuditFilter picks lines of the audit trail; zero fields pick every line.
type AuditFilter struct {
	Agent        string
	Conversation string
	Since, Until time.Time
	Limit        int // the newest Limit lines; 0 means AuditDefaultLimit
}

// Bounds of one read of the audit trail.
const (
	AuditDefaultLimit = 1000
	AuditMaxLimit     = 100000
)

// Wants reports whether f picks r.
func (f AuditFilter) Wants(r *AuditRecord) bool {
	switch {
	case f.Agent != "" && r.Agent != f.Agent,
		f.Conversation != "" && r.Conversation != f.Conversation,
		!f.Since.IsZero() && r.At.Before(f.Since),
		!f.Until.IsZero() && !r.At.Before(f.Until):
		return false
	}
	return true
}

// AuditList answers a read of the audit trail, oldest first.
type AuditList []AuditRecord

func (AuditList) answer() {}

// SecretChanged is the control line of a change to the owner's secrets
// (action add_secret, change_secret or remove_secret) from surface (the
// dashboard, the CLI) that ended with err: the secret's name and origins,
// never its value. Its code is err's, or store_failed for a failure of
// the file itself.
func SecretChanged(surface, action, name string, origins []string, err error) *AuditRecord {
	code := AuditOK
	var e *Error
	switch {
	case errors.As(err, &e):
		code = e.Code
	case err != nil:
		code = CodeStoreFailed
	}
	detail := surface + ": " + name
	if len(origins) > 0 {
		detail += " for " + strings.Join(origins, " ")
	}
	return &AuditRecord{Kind: AuditControl, Action: action, Code: code, Detail: Clip(detail, auditDetail)}
}

// auditDetail bounds a line's detail, as the trail bounds a control's.
const auditDetail = 240

// CLIAgent starts the User-Agent of buddi's own CLI: the trail names the
// CLI as the surface of a change it sent.
const CLIAgent = "buddi-cli/"
