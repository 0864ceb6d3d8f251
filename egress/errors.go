package egress

import (
	"errors"
	"fmt"

	"github.com/buddi-dev/buddi/messages"
)

// Code is the contract's code: egress refusals speak it directly.
type Code = messages.Code

// Refusal codes. They are part of the agent API: never rename one.
const (
	CodeBadURL           = messages.CodeBadURL        // not a URL a browser would open the same way we read it
	CodeSchemeNotAllowed = messages.CodeScheme        // not http or https
	CodeHostNotAllowed   = messages.CodeHostNotListed // outside BUDDI_BROWSER_HOSTS
	CodeNeverAutomate    = messages.CodeNeverAutomate // on the embedded never-automate list
	CodePrivateAddress   = messages.CodePrivate       // loopback, private, link-local and the like
	CodePortNotAllowed   = messages.CodePort          // not 80 or 443
	CodeAirGap           = messages.CodeAirGap        // air-gap is on
	CodeUnapprovedSite   = messages.CodeUnapproved    // a page link to a site the owner has not approved
	CodeCredentialField  = messages.CodeCredential    // typing into a password or card field
	CodeSecretValue      = messages.CodeSecretValue   // typing something that looks like a key or token
	CodeBuddiAddress     = messages.CodeBuddiAddress  // buddi's own address, even as a preview origin
	CodeSecretInURL      = messages.CodeSecretInURL   // a URL carrying what looks like a secret, or a known one
)

// Refusal is a request the egress rules turned down.
type Refusal struct {
	Code   Code
	Reason string // one sentence for a person: what was refused and what to do next
}

func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Code, r.Reason) }

// Coded is the refusal as the contract says it.
func (r *Refusal) Coded() *messages.Error { return &messages.Error{Code: r.Code, Message: r.Reason} }

var _ messages.Coded = (*Refusal)(nil)

// Is reports whether target is a *Refusal with the same code, so
// errors.Is(err, &egress.Refusal{Code: egress.CodeAirGap}) works.
func (r *Refusal) Is(target error) bool {
	t, ok := target.(*Refusal) //nolint:errorlint // Is compares the target itself
	return ok && t.Code == r.Code
}

// CodeOf returns the code of a refusal anywhere in err's chain, or "".
func CodeOf(err error) Code {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Code
	}
	return ""
}

func refuse(code Code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Reason: fmt.Sprintf(format, args...)}
}
