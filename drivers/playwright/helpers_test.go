package playwright_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// site serves test pages on 127.0.0.1 and counts the requests it saw.
type site struct {
	*httptest.Server
	mux  *http.ServeMux
	mu   sync.Mutex
	hits map[string]int
}

func newSite(t testing.TB) *site {
	s := &site{mux: http.NewServeMux(), hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		s.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// page serves html (wrapped in a document with title) at path.
func (s *site) page(path, title, body string) {
	s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body>%s</body></html>", title, body)
	})
}

// awaitHit waits, within 15 s, until the site has been asked key once:
// a page's fetch reaches the server some time after the event that made it.
func (s *site) awaitHit(key string) bool {
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s.hit(key) > 0 {
			return true
		}
	}
	return false
}

func (s *site) hit(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[key]
}

func (s *site) allHits() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for k, n := range s.hits {
		keys = append(keys, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func openConv(t testing.TB, d drivers.Driver, conv string) drivers.Tabs {
	t.Helper()
	tabs, err := d.Open(testCtx(t), conv)
	if err != nil {
		t.Fatalf("Open(%q): %v", conv, err)
	}
	t.Cleanup(func() { _ = tabs.Close(context.Background()) })
	return tabs
}

func observe(t testing.TB, tabs drivers.Tabs, opts drivers.ObserveOptions) *drivers.Observation {
	t.Helper()
	obs, err := tabs.Observe(testCtx(t), opts)
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	return obs
}

func mustDo(t testing.TB, tabs drivers.Tabs, a *drivers.Action) *drivers.Outcome {
	t.Helper()
	out, err := tabs.Do(testCtx(t), a)
	if err != nil {
		t.Fatalf("Do(%s): %v", a.Kind, err)
	}
	return out
}

func navigate(t testing.TB, tabs drivers.Tabs, url string) *drivers.Outcome {
	t.Helper()
	return mustDo(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: url})
}

// target finds the observed element with role and name.
func target(t testing.TB, obs *drivers.Observation, role, name string) *drivers.Target {
	t.Helper()
	for _, tg := range obs.Refs {
		if tg.Role == role && tg.Name == name {
			return obs.Of(tg)
		}
	}
	t.Fatalf("no %s %q in the observation:\n%s", role, name, obs.Tree)
	return nil
}

func wantCode(t testing.TB, err error, code drivers.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want code %s", code)
	}
	if got := drivers.CodeOf(err); got != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
}
