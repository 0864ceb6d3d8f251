package walker

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
)

// FillBody is the engine body of a fill of ref, which the engine checks is
// still the field want describes. origins, when not nil, are the only
// origins the field's own document may have: a secret_fill's, read in the
// same call that types.
func FillBody(ref, value string, want any, origins []string) (string, error) {
	return fillBody(ref, value, want, origins, false)
}

// CheckedFillBody is FillBody for want read by an earlier observation,
// not just now: before anything else the engine checks that the field is
// still rendered, fingerprints as want does (text aside) and has its
// autocomplete and input mode, and answers "recheck" when it does not,
// having done nothing. Its field attributes are then the ones a check of
// want saw.
func CheckedFillBody(ref, value string, want *Info, origins []string) (string, error) {
	return fillBody(ref, value, want, origins, true)
}

func fillBody(ref, value string, want any, origins []string, checked bool) (string, error) {
	fields := map[string]any{"ref": ref, "value": value, "want": want}
	if checked {
		fields["checked"] = true
	}
	if origins != nil {
		fields["origins"] = origins
	}
	args, err := json.Marshal(fields)
	if err != nil {
		return "", err
	}
	return "fill " + url.PathEscape(string(args)), nil
}

// SecretOrigins are the origins a fill checks the field's document
// against: a secret_fill's (never none), nil for an agent's own text.
func SecretOrigins(a *drivers.Action) []string {
	if a.Kind != drivers.SecretFill {
		return nil
	}
	if a.Origins == nil {
		return []string{}
	}
	return a.Origins
}

// FillAnswer is the engine's answer to a fill (input.js fillRef).
type FillAnswer struct {
	OK bool `json:"ok"`
	// Error is why nothing was typed: stale, recheck (a checked fill's
	// field is not the one observed), kind, disabled, origin, value, focus
	// or changed.
	Error string `json:"error"`
	// Title is the title of the field's document after the fill, cut to
	// drivers.MaxTitle characters in the page.
	Title string `json:"title"`
	// Origin is the origin of the field's document, for origin (a
	// secret_fill into a page its secret is not for).
	Origin string `json:"origin"`
	// For are the origins the secret is for, as the fill gave them.
	For []string `json:"for"`
	// Type is the field's input type (or its tag when it is no input), for
	// kind and value.
	Type string `json:"type"`
	// Min, Max and Step are the field's own bounds, for value.
	Min  string `json:"min"`
	Max  string `json:"max"`
	Step string `json:"step"`
	// Info is what has focus instead, or what the field became (focus,
	// changed).
	Info *Info `json:"info"`
}

// formats is how a picked value is written, per input type.
var formats = map[string]string{
	"date": "YYYY-MM-DD, such as 2026-12-01", "time": "HH:MM or HH:MM:SS, such as 14:30",
	"datetime-local": "YYYY-MM-DDTHH:MM, such as 2026-12-01T14:30", "month": "YYYY-MM, such as 2026-12",
	"week": "YYYY-Www, such as 2026-W49", "color": "#rrggbb in lower case, such as #336699",
	"number": "a number", "range": "a number",
}

// Refused is the error for a fill the engine refused before any input
// (kind, disabled, origin, value), or nil for any other answer. The sentence says
// what the element takes instead; it never quotes the value, which may be
// private.
func (a *FillAnswer) Refused(ref string) *drivers.Error {
	switch a.Error {
	case "origin":
		return drivers.ErrSecretOrigin(ref, a.Origin, a.For)
	case "kind":
		return refuse(drivers.CodeTargetMiss, notText(ref, a.Type))
	case "disabled":
		return refuse(drivers.CodeTargetMiss, "The field "+ref+" is disabled or read-only, so it takes no text now; observe again once the page enables it.")
	case "value":
		msg := "The " + a.Type + " field " + ref + " would not keep that value; give it as " + formats[a.Type]
		if a.Min != "" || a.Max != "" || a.Step != "" {
			msg += " within its bounds (min " + or(a.Min, "none") + ", max " + or(a.Max, "none") + ", step " + or(a.Step, "1") + ")"
		}
		return refuse(drivers.CodeBadInput, msg+".")
	}
	return nil
}

// notText says what to do with an element that takes no text.
func notText(ref, typ string) string {
	switch typ {
	case "checkbox", "radio":
		return "The element " + ref + " is a " + typ + ", which takes no text: click it to change it."
	case "file":
		return "The element " + ref + " chooses a file, and agents cannot upload files: ask the owner to take over and choose it."
	case "button", "submit", "reset", "image":
		return "The element " + ref + " is a button, which takes no text: click it instead."
	case "select":
		return "The element " + ref + " is a list of options: use select with the option's label instead of fill."
	}
	return "The element " + ref + " takes no text: fill a text box, a text area or editable content."
}

func refuse(code drivers.Code, msg string) *drivers.Error {
	return &drivers.Error{Code: code, Message: msg}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Recheck is the error a checked ref selector (CheckedRef) fails with when
// its element is gone, hidden, no longer fingerprints as observed or has
// another autocomplete or input mode; it is the engine's RECHECK (ops.js).
const Recheck = "buddi: recheck ref"

// CheckedRef is the engine body that finds ref's element only while it
// is rendered and fingerprints as want, an earlier read of it, does (text
// aside, autocomplete and input mode in); otherwise the query throws
// Recheck, so that an input aimed at it fails at once instead of waiting
// for it.
func CheckedRef(ref string, want *Info) (string, error) {
	raw, err := json.Marshal(want)
	if err != nil {
		return "", err
	}
	return "ref " + ref + " " + strings.ReplaceAll(url.PathEscape(string(raw)), "'", "%27"), nil
}
