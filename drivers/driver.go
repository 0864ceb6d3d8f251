package drivers

import (
	"context"
	"iter"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Driver is one way of acting on pages (one browser profile, or a simulation).
type Driver interface {
	// Status reports what the driver would use, without launching anything.
	Status(ctx context.Context) Status
	// Open returns the tabs of one conversation, launching the browser on
	// first use. Opening the same conversation twice returns the same tabs.
	Open(ctx context.Context, conversation string) (Tabs, error)
	// Close ends every conversation's tabs and releases the browser.
	Close() error
}

// Tabs is one conversation's share of the browser.
type Tabs interface {
	// Observe captures the active tab: URL, title, tabs, an accessibility tree
	// with refs, and a screenshot when asked.
	Observe(ctx context.Context, opts ObserveOptions) (*Observation, error)
	// Do performs one action. Target-taking actions carry the Target from the
	// latest observation; the driver checks it still names the same element
	// on the same page before dispatching any input.
	Do(ctx context.Context, a *Action) (*Outcome, error)
	// Interrupt abandons whatever is in flight (a pending load is stopped at
	// once) and keeps the page as it is. It is what take-over calls.
	Interrupt()
	// Close closes this conversation's tabs; other conversations keep theirs.
	Close(ctx context.Context) error
}

// Status is what the driver reports about itself, as the contract says it.
type Status = messages.BrowserStatus

// ObserveOptions shape an observation. Without FullPage, Within or Find it
// shows what is on screen and an outline of the rest of the page.
type ObserveOptions struct {
	FullPage   bool    // the whole document, in parts, rather than the viewport
	Within     *Target // read this region (a landmark, a heading's section, any element), in parts
	After      *Target // continue a FullPage or Within read after this element
	Rows       string  // with Within a table: the rows to read, such as "12-40"
	Find       *Query  // search the whole document instead of showing it
	Screenshot bool    // attach a JPEG of the viewport
	MaxChars   int     // bound on the tree text; 0 means the driver default
}

// Query is what find searches for: any of text, role and name, all of
// which must match. Exact asks for whole, case-sensitive equality instead
// of a case-insensitive substring.
type Query struct {
	Text  string `json:"text,omitempty"`
	Role  string `json:"role,omitempty"`
	Name  string `json:"name,omitempty"`
	Exact bool   `json:"exact,omitempty"`
}

// Continuation says how to read the next part of a read that did not fit,
// as the contract says it.
type Continuation = messages.Continuation

// Observation is what the agent sees. Refs maps each ref in Tree to the
// evidence the driver needs to check it again before input.
type Observation struct {
	URL        string             `json:"url"`
	Title      string             `json:"title"`
	Tab        string             `json:"tab"`
	Tabs       []TabInfo          `json:"tabs"`
	Tree       string             `json:"tree"`
	Truncated  bool               `json:"truncated,omitempty"` // Continues is set, or more is on screen
	Continues  *Continuation      `json:"continues,omitempty"`
	Refs       map[string]Element `json:"-"`
	Screenshot []byte             `json:"-"`
	TakenAt    time.Time          `json:"observedAt"`
	// App is the app whose window this is, by id, in Use my apps; empty in
	// the browser modes. A surface checks it before a picture leaves.
	App string `json:"-"`
}

// RefsIn lists the refs of a tree ("[ref=e12]", or "[ref=ax12]" in Use my
// apps) in the order it shows them, once each.
func RefsIn(tree string) []string {
	seen := map[string]bool{}
	var out []string
	for ref := range Refs(tree) {
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	return out
}

// Refs gives the refs of a tree's ref marks in order, read in place,
// without a list: a ref the tree names twice comes twice.
func Refs(tree string) iter.Seq[string] {
	const mark = "[ref="
	return func(yield func(string) bool) {
		for rest := tree; ; {
			i := strings.Index(rest, mark)
			if i < 0 {
				return
			}
			rest = rest[i+len(mark):]
			if ref, ok := RefAt(rest); ok && !yield(ref) {
				return
			}
		}
	}
}

// RefAt is the ref at the start of s ("e12]" or "ax12]"), if one is
// there: the refs RefsIn takes.
func RefAt(s string) (string, bool) {
	j := 0
	switch {
	case strings.HasPrefix(s, "e"):
		j = 1
	case strings.HasPrefix(s, "ax"):
		j = 2
	default:
		return "", false
	}
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j || k >= len(s) || s[k] != ']' {
		return "", false
	}
	return s[:k], true
}

// Element is one observed element. Fingerprint is the driver's own evidence
// (identifying attributes, form destination, page URL); the session treats it
// as opaque and hands it back with the action. Label, Placeholder and Text
// are what a semantic target may match besides role and name; Frame is the
// element's frame as the observation numbered it (0: the page itself).
//
// An observation holds one per ref, by value: at 120 bytes a map keeps it
// inline (above 128 every entry would be an allocation of its own).
type Element struct {
	Ref         string `json:"ref"`
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Text        string `json:"text,omitempty"`
	Frame       int    `json:"frame,omitempty"`
	Fingerprint string `json:"-"`
}

// Target is an element an action aims at: an Element of an observation and
// the tab that observation was of.
type Target struct {
	Element
	Tab string `json:"tab"`
	// Tree, when set, is the tree of the observation the target was picked
	// from by what it is rather than by ref: such a target needs the page's
	// tree unchanged, so the driver reads it again before input and refuses
	// with stale_ref when it differs.
	Tree string `json:"-"`
}

// Of is the target of el in the observation: el with the observation's tab.
func (o *Observation) Of(el Element) *Target { return &Target{Element: el, Tab: o.Tab} }
