package extension_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/messages"
)

// In your browser as in buddi's: a Tab out of a cross-site frame's last
// field moves the focus in the browser's own time and can undo the focus
// the next click gave another frame's field. Every key pressed right
// after such a click either reaches the field clicked or is refused, and
// none is lost unsaid.
func TestYourBrowsersKeyAfterTabAndClickAcrossFramesLandsOrIsRefused(t *testing.T) {
	var mu sync.Mutex
	typed := map[string]int{}
	mux := http.NewServeMux()
	mux.HandleFunc("/outer", func(w http.ResponseWriter, r *http.Request) {
		far := "http://" + strings.Replace(r.Host, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Outer</title><body><p>outer</p>
<iframe src="/inner?same" width="400" height="120"></iframe>
<iframe src="%s/inner?cross" width="400" height="120"></iframe>`, far)
	})
	mux.HandleFunc("/inner", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Inner</title><body><label>Field %[1]s <input id="f"></label>
<script>document.getElementById('f').addEventListener('input', () => fetch('/typed?%[1]s'))</script>`, r.URL.RawQuery)
	})
	mux.HandleFunc("/typed", func(_ http.ResponseWriter, r *http.Request) {
		mu.Lock()
		typed[r.URL.RawQuery]++
		mu.Unlock()
	})
	hits := func(name string) int {
		mu.Lock()
		defer mu.Unlock()
		return typed[name]
	}
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	_, d, _ := pairedChrome(t)
	tabs := drivertest.Open(t, extdriver.New(extdriver.Config{Caller: callerOf(d)}), "clickfocus")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/outer"})
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	field := map[string]*drivers.Target{"same": drivertest.Target(t, obs, "textbox", "Field same"), "cross": drivertest.Target(t, obs, "textbox", "Field cross")}
	refused := 0
	for i := range 10 {
		from, to := "cross", "same"
		if i%2 == 1 {
			from, to = to, from
		}
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: field[from]})
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "Tab"})
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: field[to]})
		before := hits(to)
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Press, Value: "x"})
		if err != nil {
			if c := messages.CodeOf(err); c != messages.CodeNotAllowed {
				t.Fatalf("round %d: the key was refused with %s, want %s: %v", i, c, messages.CodeNotAllowed, err)
			}
			refused++
			continue
		}
		for deadline := time.Now().Add(5 * time.Second); hits(to) == before && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond) // each key's report is a fetch of its own
		}
		if hits(to) == before {
			t.Fatalf("round %d: the key was pressed without error after a click into the %s frame's field and never reached it", i, to)
		}
	}
	t.Logf("%d of 10 keys refused because the click's focus was undone", refused)
}
