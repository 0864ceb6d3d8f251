package playwright

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// elemInfo is what the engine reads of one element in the isolated world.
type elemInfo struct {
	Tag          string `json:"tag"`
	Role         string `json:"role"`
	Name         string `json:"name"`
	ID           string `json:"id"`
	NameAttr     string `json:"nm"`
	Type         string `json:"type"`
	Href         string `json:"href"`
	Action       string `json:"action"`
	Method       string `json:"method"`
	Autocomplete string `json:"ac"`
	InputMode    string `json:"im"`
	Password     bool   `json:"pw"`
	Visible      bool   `json:"vis"` // rendered with a box; not part of the fingerprint
	// What a semantic target may match besides role and name; not part of
	// the fingerprint (text changes do not stale a ref).
	Label       string `json:"label"`
	Placeholder string `json:"ph"`
	Text        string `json:"tx"`
}

// fingerprint identifies the element on its page: what it is, where it
// points, and the URL of the page (and frame) it is on. Text content is left
// out on purpose, beyond the accessible name, so that unrelated text changing
// on the page (a ticker, a clock) does not make the ref stale.
func (e *elemInfo) fingerprint(pageURL, frameURL string) string {
	h := sha256.New()
	for _, s := range []string{"v1", e.Tag, e.Role, e.Name, e.ID, e.NameAttr, e.Type,
		e.Href, e.Action, strings.ToLower(e.Method), pageURL, frameURL} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "v1:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// field is the element as CheckField sees it.
func (e *elemInfo) field() Field {
	return Field{Tag: e.Tag, Type: e.Type, Autocomplete: e.Autocomplete,
		Name: e.NameAttr, ID: e.ID, InputMode: e.InputMode}
}
