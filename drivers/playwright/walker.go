package playwright

import (
	"embed"
	"encoding/json"
	"strings"
	"sync"
)

// The walker is the engine's source: plain JavaScript files, concatenated
// in walkerFiles' order into one function body whose result is the engine.
//
//go:embed walker/*.js
var walkerFS embed.FS

// walkerFiles lists every file of walker/, in the order they are joined.
var walkerFiles = []string{"refs.js", "dom.js", "roles.js", "names.js", "credential.js", "walk.js", "render.js", "outline.js", "find.js", "input.js", "ops.js"}

// walkerBody is the walker's files joined, read once.
var walkerBody = sync.OnceValue(func() string {
	var b strings.Builder
	for _, f := range walkerFiles {
		src, err := walkerFS.ReadFile("walker/" + f)
		if err != nil {
			panic("playwright: walker file missing: " + f)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	return b.String()
})

// noRules are the field rules when the caller gives none: only
// type=password is then a credential field.
const noRules = `{"autocomplete":[],"words":[],"runs":[],"codeWords":[],"notCodeWords":[],"tokens":[]}`

// engineSource is the engine with rules (Config.FieldRules) as RULES.
func engineSource(rules json.RawMessage) string {
	if len(rules) == 0 {
		rules = json.RawMessage(noRules)
	}
	return "(() => {\n'use strict';\nconst RULES = " + string(rules) + ";\n" + walkerBody() + "return engine;\n})()"
}
