package egress

import (
	"errors"
	"fmt"
)

// Code is a stable machine code for a refusal, shown to agents beside a sentence.
type Code string

// Refusal codes. They are part of the agent API: never rename one.
const (
	CodeBadURL           Code = "bad_url"            // not a URL a browser would open the same way we read it
	CodeSchemeNotAllowed Code = "scheme_not_allowed" // not http or https
	CodeHostNotAllowed   Code = "host_not_allowed"   // outside BUDDI_BROWSER_HOSTS
	CodeNeverAutomate    Code = "never_automate"     // on the embedded never-automate list
	CodePrivateAddress   Code = "private_address"    // loopback, private, link-local and the like
	CodePortNotAllowed   Code = "port_not_allowed"   // not 80 or 443
	CodeAirGap           Code = "air_gap"            // air-gap is on
	CodeUnapprovedSite   Code = "unapproved_site"    // a page link to a site the owner has not approved
	CodeCredentialField  Code = "credential_field"   // typing into a password or card field
	CodeSecretValue      Code = "secret_value"       // typing something that looks like a key or token
)

// Refusal is a request the egress rules turned down.
type Refusal struct {
	Code   Code
	Reason string // one sentence for a person: what was refused and what to do next
}

func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Code, r.Reason) }

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
