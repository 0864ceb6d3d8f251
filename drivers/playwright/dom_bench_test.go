package playwright_test

import (
	"net/http/httptest"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// BenchmarkDOM reads documentation pages with the dom action, at its
// default cap and at the cap's most, and reports the answer's size.
func BenchmarkDOM(b *testing.B) {
	d := sharedDriver(b)
	docs := browsertest.NewDocs(b)
	site := httptest.NewServer(docs.Mux)
	b.Cleanup(site.Close)
	pages := map[string]string{"go-spec": "/ref/spec", "rust-book": "/book/ch04-01-what-is-ownership.html"}
	if docs.Python {
		pages["python-os"] = "/py/library/os.html"
	}
	tabs := openConv(b, d, b.Name())
	for name, path := range pages {
		b.Run(name, func(b *testing.B) {
			navigate(b, tabs, site.URL+path)
			var size int
			for b.Loop() {
				size = len(mustDo(b, tabs, &drivers.Action{Kind: drivers.DOM}).Text)
			}
			b.ReportMetric(float64(size), "answer-bytes")
		})
	}
}
