package playwright_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// Take over mid slow load: Interrupt returns the call at once with code
// interrupted, stops the load (the server sees its request cancelled), and
// keeps the page where it was.
func TestInterruptStopsSlowLoad(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/here", "Here", `<p>still here</p>`)
	entered, cancelled := make(chan struct{}), make(chan struct{})
	s.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		select {
		case <-r.Context().Done():
			close(cancelled)
		case <-time.After(60 * time.Second):
		}
	})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/here")
	errc := make(chan error, 1)
	go func() {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/slow", Timeout: 60 * time.Second})
		errc <- err
	}()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the slow page was never requested")
	}
	tabs.Interrupt()
	select {
	case err := <-errc:
		wantCode(t, err, drivers.CodeInterrupted)
	case <-time.After(10 * time.Second):
		t.Fatal("the navigation did not return after Interrupt")
	}
	select {
	case <-cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the slow request was not cancelled")
	}
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if obs.URL != s.URL+"/here" || obs.Title != "Here" {
		t.Fatalf("after Interrupt the tab is at %s (%q)", obs.URL, obs.Title)
	}
}

// The first paint of a page the agent opened is heard: a take-over's stop
// waits for it (a stop between a page's load and its first paint left it
// without a picture), for a second at most after the load.
func TestAVisitedPagesFirstPaintIsHeard(t *testing.T) {
	s := newSite(t)
	s.page("/here", "Here", `<p>still here</p>`)
	s.page("/there", "There", `<p>and there</p>`)
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/here")
	navigate(t, tabs, s.URL+"/there")
	for deadline := time.Now().Add(5 * time.Second); !playwright.Painted(tabs); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no first paint of the page was heard in 5 s")
		}
	}
}
