// Package walker is the page-side engine both browser drivers run: plain
// JavaScript files (js/) that read a document into the tree with refs,
// search it, report focus and fill a field in one call. The Playwright
// driver registers it as a selector engine in Playwright's isolated world;
// the extension driver installs it in an isolated world of its own through
// the debugger. Either way the page's scripts can neither see nor patch it.
package walker

import (
	"embed"
	"encoding/json"
	"strings"
	"sync"
)

//go:embed js/*.js
var files embed.FS

// order lists every file of js/, in the order they are joined.
var order = []string{"refs.js", "dom.js", "roles.js", "names.js", "credential.js", "sections.js", "table.js", "walk.js",
	"render.js", "outline.js", "find.js", "input.js", "html.js", "ops.js"}

// body is the files joined, read once.
var body = sync.OnceValue(func() string {
	var b strings.Builder
	for _, f := range order {
		src, err := files.ReadFile("js/" + f)
		if err != nil {
			panic("walker: file missing: " + f)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
})

// noRules are the field rules when the caller gives none: only
// type=password is then a credential field.
const noRules = `{"autocomplete":[],"words":[],"runs":[],"codeWords":[],"notCodeWords":[],"tokens":[]}`

// Source is the engine as one expression whose value is the engine object
// (its queryAll(root, body) answers every op), with rules (the field
// rules, egress.FieldRules as JSON) as RULES.
func Source(rules json.RawMessage) string {
	if len(rules) == 0 {
		rules = json.RawMessage(noRules)
	}
	return "(() => {\n'use strict';\nconst RULES = " + string(rules) + ";\n" + body() + "return engine;\n})()"
}
