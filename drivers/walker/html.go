package walker

import (
	"encoding/json"
	"net/url"
	"strconv"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/drivers"
)

// DOMChars is the dom action's cap when the action names none.
const DOMChars = 8000

// DOMOp is the engine op of a's dom read (html.js htmlOf): the page, or the
// first element a.Selector matches, as sanitised HTML of at most a.MaxChars
// (DOMChars when zero) characters.
func DOMOp(a *drivers.Action) string {
	args, _ := json.Marshal(struct {
		Max      int    `json:"max"`
		Selector string `json:"selector,omitempty"`
	}{limit(a), a.Selector})
	return "html " + url.PathEscape(string(args))
}

func limit(a *drivers.Action) int {
	if a.MaxChars <= 0 {
		return DOMChars
	}
	return a.MaxChars
}

// DOMAnswer is the engine's answer to DOMOp.
type DOMAnswer struct {
	Text  string `json:"text"`
	Cut   bool   `json:"cut"`
	Error string `json:"error"` // "selector": not a selector; "nomatch": nothing matched
}

// Read is what the agent reads of the answer to a's dom read: the HTML,
// with a line saying where it was cut, or why nothing was read.
func (d *DOMAnswer) Read(a *drivers.Action) (string, error) {
	switch d.Error {
	case "selector":
		return "", refuse(drivers.CodeBadInput, "The selector is not valid CSS; give one such as main, #content or article h2.")
	case "nomatch":
		return "", refuse(drivers.CodeTargetMiss, "Nothing on the page matches the selector; read the whole page's dom or observe first.")
	}
	n := limit(a)
	text := d.Text
	if utf8.RuneCountInString(text) > n { // the engine keeps to n UTF-16 units, so this is a backstop
		text, d.Cut = string([]rune(text)[:n]), true
	}
	if d.Cut {
		text += "\n(cut at " + strconv.Itoa(n) + " characters: read a part of the page with selector)"
	}
	return text, nil
}
