package playwright_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Real documentation, written by others, served on 127.0.0.1: Go's
// language specification from the Go distribution and The Rust Programming
// Language (an mdBook) that scripts/setup.sh unpacks from Debian's rust-doc.

// goSpec serves the Go specification at /ref/spec and returns its URL.
func goSpec(t testing.TB, s *site) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "doc", "go_spec.html")
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the Go specification is part of every Go distribution: %v", err)
	}
	s.page("/ref/spec", "The Go Programming Language Specification", string(body))
	return s.URL + "/ref/spec"
}

// pagesDir is where scripts/setup.sh puts the documentation it unpacks.
func pagesDir() string {
	if d := os.Getenv("BUDDI_TEST_PAGES"); d != "" {
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "buddi", "pages")
}

// rustBook serves The Rust Programming Language at /book/ and returns that
// URL.
func rustBook(t testing.TB, s *site) string {
	t.Helper()
	dir := filepath.Join(pagesDir(), "rust-book")
	if _, err := os.Stat(filepath.Join(dir, "ch04-01-what-is-ownership.html")); err != nil {
		t.Fatalf("The Rust book is not unpacked in %s: run scripts/setup.sh (make deps). %v", dir, err)
	}
	s.mux.Handle("/book/", http.StripPrefix("/book/", http.FileServer(http.Dir(dir))))
	return s.URL + "/book/"
}
