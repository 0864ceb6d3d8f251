package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// site is the test's web site, reachable by the browser as a preview origin.
type site struct {
	*httptest.Server
	submissions atomic.Int32
	slowStarted chan struct{}
	slowDone    chan struct{}
	move        chan struct{} // closed: /moving goes to /next
	mu          sync.Mutex
	hits        map[string]int
}

func newSite(t testing.TB) *site {
	s := &site{slowStarted: make(chan struct{}, 8), slowDone: make(chan struct{}, 8), hits: map[string]int{}, move: make(chan struct{})}
	mux := http.NewServeMux()
	page := func(path, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			s.hit(r.URL.Path)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		})
	}
	page("/", `<!doctype html><title>Home</title><h1>Home</h1>
<nav><a href="/next">Next page</a> <a href="/form">Contact form</a></nav>
<p>Welcome to the test site.</p>`)
	page("/next", `<!doctype html><title>Next</title><h1>Next page</h1><a href="/">Back home</a>`)
	page("/form", `<!doctype html><title>Form</title><h1>Contact</h1>
<form method="post" action="/submit">
<label>Name <input name="name"></label>
<label>Colour <select name="colour"><option>Red</option><option>Blue</option></select></label>
<button type="submit">Send</button></form>`)
	page("/login", `<!doctype html><title>Login</title><form><label>User <input name="user"></label>
<label>Password <input type="password" name="pw"></label><button>Sign in</button></form>`)
	// /moving goes to /next by itself once the test closes move (it asks
	// the server every 100 ms), whatever the machine's load.
	page("/moving", `<!doctype html><title>Moving</title><h1>Moving</h1><a href="/next">Stay here</a>
<script>setInterval(function(){ fetch('/moving/go').then(function(r){ if (r.status === 200) location.href = '/next'; }); }, 100);</script>`)
	mux.HandleFunc("/moving/go", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-s.move:
			w.WriteHeader(http.StatusOK)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("/submit", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			s.submissions.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Thanks</title><h1>Thanks</h1>`)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		s.slowStarted <- struct{}{}
		<-r.Context().Done() // never answers; ends when the browser gives up on it
		s.slowDone <- struct{}{}
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *site) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *site) hit(path string) {
	s.mu.Lock()
	s.hits[path]++
	s.mu.Unlock()
}

// target is a second server on loopback the browser must never reach.
type target struct {
	*httptest.Server
	reached atomic.Int32
}

func newTarget(t *testing.T) *target {
	tg := &target{}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.reached.Add(1)
		fmt.Fprint(w, "secret")
	}))
	t.Cleanup(tg.Close)
	return tg
}
