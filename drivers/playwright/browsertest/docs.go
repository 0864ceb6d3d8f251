package browsertest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Docs is documentation written by others, served on 127.0.0.1 for tests
// and benchmarks:
//
//	/ref/spec   Go's language specification, from the Go distribution
//	/book/      The Rust Programming Language, an mdBook that scripts/pages.sh
//	            unpacks from Debian's rust-doc
//	/py/        Python's documentation from Debian's python3-doc, when
//	            installed (scripts/pages.sh --bench)
type Docs struct {
	Mux *http.ServeMux
	// Python is whether /py/ is served.
	Python bool
}

// BenchPages are the pages of the task benchmark (e2e): the pages its
// tasks start on and the pages they pass through. Python's are served only
// when its documentation is installed (Docs.Python).
var BenchPages = []string{
	"/book/ch04-01-what-is-ownership.html", "/book/ch04-02-references-and-borrowing.html", "/ref/spec",
	"/py/index.html", "/py/about.html", "/py/library/index.html", "/py/library/os.html", "/py/library/internet.html",
	"/py/library/urllib.parse.html", "/py/tutorial/index.html", "/py/tutorial/controlflow.html",
	"/py/library/codecs.html", "/py/library/datetime.html", "/py/library/struct.html",
	"/py/library/stdtypes.html", "/py/library/subprocess.html", "/py/search.html?q=scandir",
}

// PagesDir is where scripts/pages.sh puts the documentation it unpacks.
func PagesDir() string {
	if d := os.Getenv("BUDDI_TEST_PAGES"); d != "" {
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "buddi", "pages")
}

// pythonDocs is where Debian's python3-doc installs its HTML.
const pythonDocs = "/usr/share/doc/python3/html"

// NewDocs builds the handlers. A missing Go specification or Rust book
// fails t with what to run; Python's documentation is optional.
func NewDocs(t testing.TB) *Docs {
	t.Helper()
	d := &Docs{Mux: http.NewServeMux()}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	spec, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "doc", "go_spec.html"))
	if err != nil {
		t.Fatalf("the Go specification ships with every Go distribution: %v", err)
	}
	page := fmt.Sprintf("<!doctype html><html><head><meta charset=utf-8><title>The Go Programming Language Specification</title></head><body>%s</body></html>", spec)
	d.Mux.HandleFunc("/ref/spec", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	book := filepath.Join(PagesDir(), "rust-book")
	if _, err := os.Stat(filepath.Join(book, "ch04-01-what-is-ownership.html")); err != nil {
		t.Fatalf("The Rust book is not unpacked in %s: run scripts/pages.sh (make deps does). %v", book, err)
	}
	d.Mux.Handle("/book/", http.StripPrefix("/book/", http.FileServer(http.Dir(book))))
	if _, err := os.Stat(filepath.Join(pythonDocs, "library", "os.html")); err == nil {
		d.Python = true
		d.Mux.Handle("/py/", http.StripPrefix("/py/", http.FileServer(http.Dir(pythonDocs))))
	}
	return d
}
