package playwright_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
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
