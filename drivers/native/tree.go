package native

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/native/protocol"
)

// evidence is what an input needs from its observation, carried in the
// target's opaque fingerprint (as JSON) so that the session hands it back
// as it was.
type evidence struct {
	App     string `json:"a"`
	Window  string `json:"w"`
	Locator string `json:"l"`
	Element string `json:"e"`
}

func (e evidence) String() string {
	b, _ := json.Marshal(e) // plain strings always encode
	return string(b)
}

func parseEvidence(fp string) (evidence, bool) {
	var e evidence
	if err := json.Unmarshal([]byte(fp), &e); err != nil || e.App == "" || e.Window == "" || e.Locator == "" || e.Element == "" {
		return evidence{}, false
	}
	return e, true
}

// render turns the helper's observation into the contract's: the window's
// title and app, the tree as indented lines ("- button "7" [ref=ax12]"),
// each ref's target, the time it was taken (the session's result opens
// with it) and, when asked, its screenshot.
func render(o *protocol.Observation, app string, withShot bool, maxChars int) *drivers.Observation {
	var b strings.Builder
	refs := make(map[string]drivers.Element, len(o.Nodes))
	truncated := o.Truncated
	fmt.Fprintf(&b, "Window %q of %s.\n", o.Window.Title, appLabel(o.Window))
	for _, n := range o.Nodes {
		line := nodeLine(n)
		if maxChars > 0 && b.Len()+len(line) > maxChars {
			truncated = true
			break
		}
		b.WriteString(line)
		refs[n.Ref] = drivers.Element{Ref: n.Ref, Role: n.Role, Name: n.Name,
			Fingerprint: evidence{App: app, Window: o.Window.Fingerprint, Locator: n.Locator, Element: n.Fingerprint}.String()}
	}
	obs := &drivers.Observation{
		Title: o.Window.Title, Tab: o.Window.ID, Tree: b.String(), Truncated: truncated,
		Refs: refs, TakenAt: o.ObservedAt.UTC().Truncate(time.Millisecond), App: o.Window.AppID,
	}
	if withShot {
		obs.Screenshot = o.Screenshot.Data
	}
	obs.Bound()
	return obs
}

func appLabel(w protocol.Window) string {
	if w.AppName != "" {
		return fmt.Sprintf("%s (%s)", w.AppName, w.AppID)
	}
	return w.AppID
}

func nodeLine(n protocol.Node) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", n.Depth))
	b.WriteString("- ")
	b.WriteString(n.Role)
	if n.Name != "" {
		fmt.Fprintf(&b, " %q", n.Name)
	}
	switch {
	case n.Secure:
		b.WriteString(" (secure, masked)")
	case n.Value != "":
		fmt.Fprintf(&b, " value=%q", n.Value)
	}
	for _, s := range n.States {
		b.WriteString(" ")
		b.WriteString(string(s))
	}
	fmt.Fprintf(&b, " [ref=%s]\n", n.Ref)
	return b.String()
}
