package webtest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/buddi-dev/buddi/daemon"
)

// attack is a page on another origin that tries, in the owner's signed-in
// browser, to stop every browser and to open the events socket. Both go to
// 127.0.0.1, so the browser counts them as same-site and sends the cookie:
// only buddi's Origin check stands in the way.
const attack = `<!doctype html><title>elsewhere</title><script>
window.result = (async () => {
  const out = {};
  try {
    await fetch(BUDDI + "/api/browser/stop", { method: "POST", credentials: "include", mode: "no-cors",
      headers: { "Content-Type": "text/plain" }, body: "{}" });
    out.post = "sent";
  } catch (e) { out.post = "failed: " + e; }
  out.socket = await new Promise((done) => {
    const ws = new WebSocket(BUDDI.replace("http", "ws") + "/api/events");
    ws.onopen = () => done("opened");
    ws.onmessage = () => done("got a frame");
    ws.onerror = () => done("refused");
    setTimeout(() => done("no answer"), 10000);
  });
  return out;
})();
</script>`

func TestAPageOnAnotherOriginCannotControlBuddi(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 800)
	o.SignIn(t, p)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<script>const BUDDI = " + `"` + o.Base + `"` + ";</script>" + attack))
	}))
	defer evil.Close()
	if _, err := p.Goto(evil.URL); err != nil {
		t.Fatal(err)
	}
	got, err := p.Evaluate("() => window.result")
	if err != nil {
		t.Fatal(err)
	}
	r := got.(map[string]any)
	if r["socket"] != "refused" {
		t.Errorf("the events socket from another origin: %v, want refused", r["socket"])
	}
	h, err := o.API.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.Stopped {
		t.Fatal("a page on another origin stopped every browser")
	}
	if r["post"] != "sent" {
		t.Fatalf("the attack page did not even send its request (%v); the test proves nothing", r["post"])
	}
}
