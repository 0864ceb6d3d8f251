package browsertest

import (
	"fmt"
	"net/http"
	"strings"
)

// Hostile is a page that, once loaded, stops answering or costs the
// browser without end, each its own way. Cut are those buddi closes (its
// conversation is told page_unresponsive); the others it keeps bounded and
// usable, and an observation of one shows its Shows.
type Hostile struct {
	Body  string // the page's <body>
	Cut   bool   // buddi closes it
	Shows string // text of the page that an observation of it shows ("" when Cut)
}

// Hostiles are the hostile pages, by name. Each starts misbehaving a
// moment after it loaded, so its navigation itself may answer ok.
var Hostiles = map[string]Hostile{
	"spin":     {`<script>setTimeout(() => { for (;;) {} }, 300)</script>`, true, ""},
	"alerts":   {`<script>setTimeout(() => { for (;;) alert('again') }, 300)</script>`, true, ""},
	"memory":   {`<script>setTimeout(() => { const a = []; for (;;) a.push(new Array(1 << 20).fill(1.5)) }, 300)</script>`, true, ""},
	"dom":      {`<script>setTimeout(() => setInterval(() => document.body.insertAdjacentHTML('beforeend', '<i>x</i>'.repeat(50000)), 5), 300)</script>`, true, ""},
	"console":  {`<script>setInterval(() => { for (let i = 0; i < 2000; i++) console.error('flood ' + i + ' ' + 'x'.repeat(10000)) }, 10)</script>`, true, ""},
	"navigate": {`<script>setTimeout(() => { location.href = location.pathname + '?' + Math.random() }, 5)</script>`, true, ""},
	"title":    {`<script>document.title = 'T'.repeat(6 << 20)</script><p>A title of 6 MB.</p>`, false, "A title of 6 MB."},
	"dom200k":  {"<h1>Many nodes</h1>" + manyNodes(2000, 100), false, "Many nodes"},
}

// manyNodes is lists lists of items items each, as HTML.
func manyNodes(lists, items int) string {
	var b strings.Builder
	for i := range lists {
		b.WriteString("<ul>")
		for j := range items {
			fmt.Fprintf(&b, "<li>item %d.%d</li>", i, j)
		}
		b.WriteString("</ul>")
	}
	return b.String()
}

// ServeHostiles serves each hostile page at /<name> of mux.
func ServeHostiles(mux *http.ServeMux) {
	for name, h := range Hostiles {
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body>%s</body></html>", strings.ToUpper(name), h.Body)
		})
	}
}
