package playwright

import (
	"embed"
	"strings"
	"sync"
)

// The walker is the engine's source: plain JavaScript files, concatenated
// in walkerFiles' order into one function body whose result is the engine.
//
//go:embed walker/*.js
var walkerFS embed.FS

// walkerFiles lists every file of walker/, in the order they are joined.
var walkerFiles = []string{"refs.js", "dom.js", "roles.js", "names.js", "walk.js", "render.js", "outline.js", "find.js", "ops.js"}

var engineSource = sync.OnceValue(func() string {
	var b strings.Builder
	b.WriteString("(() => {\n'use strict';\n")
	for _, f := range walkerFiles {
		src, err := walkerFS.ReadFile("walker/" + f)
		if err != nil {
			panic("playwright: walker file missing: " + f)
		}
		b.Write(src)
		b.WriteByte('\n')
	}
	b.WriteString("return engine;\n})()")
	return b.String()
})
