package walker

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
)

// ReadArgs are the engine's observe arguments (ops.js observe).
type ReadArgs struct {
	Base    int            `json:"base"` // the next ref number never given in the conversation
	Mode    string         `json:"mode"` // "view" or "full"
	Max     int            `json:"max"`
	Outline bool           `json:"outline,omitempty"`
	Within  string         `json:"within,omitempty"`
	After   string         `json:"after,omitempty"`
	Rows    string         `json:"rows,omitempty"` // with Within a table: the rows to read, "12-40"
	Find    *drivers.Query `json:"find,omitempty"`
}

// Answer is the engine's answer to one read of one document.
type Answer struct {
	Tree      string             `json:"tree"`
	Infos     map[string]Info    `json:"infos"`
	Next      int                `json:"next"`
	Continues *Continuation      `json:"continues"`
	Frames    []FrameSlot        `json:"frames"`
	Title     string             `json:"title"`
	Nav       string             `json:"nav"`   // the document's navigation mark as it was read (NavMark)
	Owner     bool               `json:"owner"` // the focus was in a frame as it was read
	URL       string             `json:"url"`
	Error     string             `json:"error"` // "stale": Ref, a region's element, is gone
	Ref       string             `json:"ref"`
	Profile   map[string]float64 `json:"ms"` // where a view's time went in the page, for a debug log
}

// Continuation is the engine's drivers.Continuation, Left included.
type Continuation struct {
	FullPage bool   `json:"fullPage"`
	Within   string `json:"within"`
	After    string `json:"after"`
	Left     int    `json:"left"`
}

// Driver is the continuation as the driver contract says it; nil for none.
func (c *Continuation) Driver() *drivers.Continuation {
	if c == nil {
		return nil
	}
	return &drivers.Continuation{FullPage: c.FullPage, Within: c.Within, After: c.After, Left: c.Left}
}

// FrameSlot is an iframe a read showed, to be read in its own frame.
type FrameSlot struct {
	Ref string `json:"ref"`
	Src string `json:"src"`
}

// Info is what the engine reads of one element (ops.js info).
type Info struct {
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

// Fingerprint identifies the element on its page: what it is, where it
// points, and the URL of the page (and of its frame, "" for the page
// itself). Text content is left out on purpose, beyond the accessible
// name, so that unrelated text changing on the page (a ticker, a clock)
// does not make the ref stale; the URL is in, so a ref read before a
// redirect is.
func (e *Info) Fingerprint(pageURL, frameURL string) string {
	h := sha256.New()
	for _, s := range []string{"v1", e.Tag, e.Role, e.Name, e.ID, e.NameAttr, e.Type,
		e.Href, e.Action, strings.ToLower(e.Method), pageURL, frameURL} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "v1:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// Field is what a driver's CheckField sees of an input before text goes
// into it: the element's own DOM attributes, read in the isolated world.
type Field struct {
	Tag          string // "input", "textarea", "select", or the element's tag
	Type         string // the type property ("text", "password", "email"...)
	Autocomplete string
	Name         string
	ID           string
	InputMode    string
}

// FieldOf is what CheckField sees of the element e describes.
func FieldOf(e *Info) Field {
	return Field{Tag: e.Tag, Type: e.Type, Autocomplete: e.Autocomplete, Name: e.NameAttr, ID: e.ID, InputMode: e.InputMode}
}

// CheckTyping is buddi's rule for typing value into f, egress.CheckTyping
// on the field's attributes: what both browser drivers are given as their
// CheckField.
func CheckTyping(f Field, value string) error {
	return egress.CheckTyping(egress.FieldInfo{Type: f.Type, Autocomplete: f.Autocomplete,
		Name: f.Name, ID: f.ID, InputMode: f.InputMode}, value)
}

// Nest puts sub, the read of a frame, under the line of the iframe that
// holds it (the line with [ref=slot]), one level deeper, and takes its
// refs. A tree without that line is left as it is.
func (a *Answer) Nest(slot string, sub *Answer) {
	lines := strings.Split(a.Tree, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "[ref="+slot+"]") {
			continue
		}
		indent := strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " "))+2)
		var nested []string
		for _, c := range strings.Split(sub.Tree, "\n") {
			if c != "" {
				nested = append(nested, indent+c)
			}
		}
		lines[i] = strings.TrimSuffix(l, ":") + ":"
		a.Tree = strings.Join(append(lines[:i+1], append(nested, lines[i+1:]...)...), "\n")
		a.take(sub)
		return
	}
}

// AddFound puts sub, a find's matches in frame number no at url, after
// a's: a heading with the frame's number, address and match count, then
// its lines; a takes its refs.
func (a *Answer) AddFound(sub *Answer, no int, url string) {
	head, lines, _ := strings.Cut(sub.Tree, "\n")
	_, count, _ := strings.Cut(head, ": ")
	a.Tree += "\nin frame " + strconv.Itoa(no) + " (" + url + "): " + count + "\n" + lines
	a.take(sub)
}

func (a *Answer) take(sub *Answer) {
	if a.Infos == nil {
		a.Infos = make(map[string]Info, len(sub.Infos))
	}
	for ref, info := range sub.Infos {
		a.Infos[ref] = info
	}
}
