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

// NavMark is a function expression for the navigations the document it
// runs in has started, read in the world it runs in: its counter's id and
// how many navigate and formdata events that world has seen, the counter
// set up on the first read; "" where the Navigation API is missing. A
// form's submission, by its button or by a script's form.submit(), is a
// task of its own whose navigate event comes later, but the entries it
// sends are gathered (formdata) as it is asked for. Run in the engine's
// world the page can neither stop nor fake the count; a counter of another
// world (the document replaced, or its world made anew) has another id.
// Input that left the mark as it was started no navigation when it was
// handled. The engine holds it as navMark.
const NavMark = `() => { const g = globalThis; if (!g.__buddiNav && typeof navigation === 'object' && navigation) {
  const m = {id: Math.random().toString(36).slice(2), n: 0}; const count = () => { m.n++; };
  navigation.addEventListener('navigate', count); window.addEventListener('formdata', count, true); g.__buddiNav = m; }
  return g.__buddiNav ? g.__buddiNav.id + ':' + g.__buddiNav.n : ''; }`

// DirectRead names the function the engine publishes in its world on its
// first query: a read of one body, answered as the text of the carrier
// the query would give (ops.js, publish). The engine holds it as DIRECT.
const DirectRead = "__buddi_direct"

// body is the files joined, read once.
var body = sync.OnceValue(func() string {
	var b strings.Builder
	b.WriteString("const navMark = " + NavMark + ";\n")
	b.WriteString("const DIRECT = '" + DirectRead + "';\n")
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

// Engine names the engine object in the world it runs in. A world holds
// one engine: the driver may load it into a world itself before Playwright
// loads its own copy there, and refs given by one copy must be the refs
// the other finds, so a later copy is the first one.
const Engine = "__buddi_engine"

// Source is the engine as one expression whose value is the engine object
// (its queryAll(root, body) answers every op), with rules (the field
// rules, egress.FieldRules as JSON) as RULES: the world's engine, made
// there by the first evaluation.
func Source(rules json.RawMessage) string {
	if len(rules) == 0 {
		rules = json.RawMessage(noRules)
	}
	return "(() => {\n'use strict';\nif (globalThis." + Engine + ") return globalThis." + Engine + ";\nconst RULES = " + string(rules) + ";\n" + body() +
		"Object.defineProperty(globalThis, '" + Engine + "', { value: engine });\nreturn engine;\n})()"
}
