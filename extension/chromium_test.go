package extension_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/extension/chrometest"
	"github.com/buddi-dev/buddi/messages"
)

// chrome is a real headless Chromium with the unpacked extension loaded
// (and any other unpacked copies).
type chrome struct {
	t   testing.TB
	ctx pw.BrowserContext
}

func launch(t testing.TB, dirs ...string) *chrome {
	t.Helper()
	return &chrome{t: t, ctx: chrometest.Launch(t, dirs...)}
}

// workerIDs waits for n extension service workers and returns their ids.
// It asks the browser (CDP Target.getTargets) rather than playwright-go's
// list of workers, which its own goroutine appends to unguarded while the
// workers start.
func (c *chrome) workerIDs(n int) []string {
	c.t.Helper()
	page, err := c.ctx.NewPage()
	if err != nil {
		c.t.Fatal(err)
	}
	defer page.Close()
	cdp, err := c.ctx.NewCDPSession(page)
	if err != nil {
		c.t.Fatal(err)
	}
	defer cdp.Detach()
	var ids []string
	waitFor(c.t, fmt.Sprintf("%d extension workers", n), func() bool {
		ids = ids[:0]
		res, err := cdp.Send("Target.getTargets", nil)
		if err != nil {
			c.t.Fatalf("Target.getTargets: %v", err)
		}
		infos, _ := res.(map[string]any)["targetInfos"].([]any)
		for _, i := range infos {
			info, _ := i.(map[string]any)
			u, _ := info["url"].(string)
			if rest, ok := strings.CutPrefix(u, "chrome-extension://"); ok && info["type"] == "service_worker" {
				ids = append(ids, strings.SplitN(rest, "/", 2)[0])
			}
		}
		return len(ids) >= n
	})
	return ids
}

// popup opens the extension's popup as a page.
func (c *chrome) popup(id string) pw.Page {
	c.t.Helper()
	page, err := c.ctx.NewPage()
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := page.Goto("chrome-extension://" + id + "/popup.html"); err != nil {
		c.t.Fatal(err)
	}
	return page
}

func text(t testing.TB, page pw.Page, sel string) string {
	t.Helper()
	s, err := page.Locator(sel).TextContent()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(s)
}

func eval(t testing.TB, page pw.Page, js string) any {
	t.Helper()
	v, err := page.Evaluate(js)
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func view(t testing.TB, d *daemontest.Daemon) *messages.ExtensionView {
	t.Helper()
	r := d.Must(t, http.MethodGet, "/api/extension", nil)
	var v messages.ExtensionView
	if err := json.Unmarshal(r.Result, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func pair(t testing.TB, d *daemontest.Daemon, code string) *daemontest.Reply {
	t.Helper()
	r, err := d.Do(http.MethodPost, "/api/extension/pair", d.Owner, map[string]string{"code": code})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// connect presses Connect in the popup, aimed at addr, and returns the code.
func connect(t testing.TB, popup pw.Page, addr string) string {
	t.Helper()
	if err := popup.Locator("#address").Fill(addr); err != nil {
		t.Fatal(err)
	}
	if err := popup.Locator("#connect").Click(); err != nil {
		t.Fatal(err)
	}
	var code string
	waitFor(t, "the pairing code in the popup", func() bool {
		code = text(t, popup, "#code")
		return len(code) == 6
	})
	return code
}

// unkeyed copies the extension without its key: a second unpacked copy,
// with an id of its own.
func unkeyed(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"worker.js", "tabs.js", "popup.html", "popup.js", "popup.css"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var m map[string]any
	b, _ := os.ReadFile("manifest.json")
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "key")
	b, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestYourBrowserInChromium pairs the real extension in real headless
// Chromium with a real buddi, and goes through what the owner and the
// network can do to it.
func TestYourBrowserInChromium(t *testing.T) {
	src, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	copyDir := unkeyed(t)
	d := daemontest.Start(t, "", daemon.Options{Version: "test"})
	addr := d.Addr()
	c := launch(t, src, copyDir)
	ids := c.workerIDs(2)
	if !contains(ids, extension.ID()) {
		t.Fatalf("Chromium gave the extension the ids %v; buddi expects %s", ids, extension.ID())
	}
	other := ids[0]
	if other == extension.ID() {
		other = ids[1]
	}
	popup := c.popup(extension.ID())

	// Pair: one wrong code, then the right one.
	code := connect(t, popup, addr)
	if v := view(t, d); v.Pairing != extension.ID() || v.Paired {
		t.Fatalf("while the code shows: %+v", v)
	}
	wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1_000_000)
	if r := pair(t, d, wrong); r.Code() != messages.CodeWrongCode {
		t.Fatalf("a wrong code: %+v", r)
	}
	if r := pair(t, d, code); !r.OK {
		t.Fatalf("the right code: %+v", r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })
	rec, found, err := extension.Load(d.Dir)
	if err != nil || !found || rec.ID != extension.ID() || rec.Build == "" {
		t.Fatalf("extension.json: %+v %v %v", rec, found, err)
	}
	token, _ := eval(t, popup, `chrome.storage.local.get('token').then(s => s.token)`).(string)
	if token == "" || strings.Contains(readFile(t, filepath.Join(d.Dir, extension.File)), token) {
		t.Fatal("the extension has no token, or buddi stored it in the clear")
	}
	waitFor(t, "the popup to say which buddi", func() bool { return strings.Contains(text(t, popup, "#buddi"), addr) })
	status(t, d)

	// The dashboard's page may ask the extension; a page on another
	// loopback port learns only the address it is aimed at.
	dash, _ := c.ctx.NewPage()
	if _, err := dash.Goto("http://" + addr + "/"); err != nil {
		t.Fatal(err)
	}
	got := eval(t, dash, fmt.Sprintf(`chrome.runtime.sendMessage(%q, {type:'buddi.status'})`, extension.ID())).(map[string]any)
	if got["ok"] != true || got["paired"] != true || got["version"] == nil {
		t.Fatalf("the dashboard's status: %v", got)
	}
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "<p>other</p>") }))
	defer foreign.Close()
	page, _ := c.ctx.NewPage()
	if _, err := page.Goto(foreign.URL); err != nil {
		t.Fatal(err)
	}
	got = eval(t, page, fmt.Sprintf(`chrome.runtime.sendMessage(%q, {type:'buddi.status'})`, extension.ID())).(map[string]any)
	if got["ok"] != false || got["version"] != nil || got["code"] != nil || got["paired"] != nil {
		t.Fatalf("a page on another port got %v", got)
	}

	// The worker stopped: a tab event wakes it, and it proves itself again.
	before := view(t, d).LastSeen
	chrometest.StopWorkers(t, c.ctx, popup)
	waitFor(t, "buddi to see the worker gone", func() bool { return !view(t, d).Connected })
	if _, err := c.ctx.NewPage(); err != nil { // tabs.onCreated wakes the worker
		t.Fatal(err)
	}
	waitFor(t, "the woken worker to reconnect", func() bool { v := view(t, d); return v.Connected && v.LastSeen.After(before) })

	// The socket dropped: buddi restarts on the same address.
	d.Stop(t)
	d = daemontest.Start(t, d.Dir, daemon.Options{Version: "test", Config: config.Config{Addr: addr}})
	waitFor(t, "the extension to reconnect to the restarted buddi", func() bool { return view(t, d).Connected })
	status(t, d)

	// A second unpacked copy cannot take over the pairing.
	copyPopup := c.popup(other)
	if err := copyPopup.Locator("#address").Fill(addr); err != nil {
		t.Fatal(err)
	}
	if err := copyPopup.Locator("#connect").Click(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the copy to be refused", func() bool { return strings.Contains(text(t, copyPopup, "#problem"), "did not accept") })
	if v := view(t, d); v.ID != extension.ID() || !v.Connected {
		t.Fatalf("the copy changed the pairing: %+v", v)
	}

	// Upgrades from elsewhere are refused.
	for name, h := range map[string]http.Header{
		"foreign origin": {"Origin": {"https://example.com"}},
		"proxy header":   {"Origin": {"chrome-extension://" + extension.ID()}, "X-Forwarded-For": {"203.0.113.9"}},
		"unknown id":     {"Origin": {"chrome-extension://" + strings.Repeat("a", 32)}},
	} {
		if code := upgrade(t, addr, h); code != http.StatusForbidden {
			t.Errorf("%s: the upgrade answered %d, want 403", name, code)
		}
	}

	// Forget: the record goes, the socket closes, the extension forgets its token.
	d.Must(t, http.MethodPost, "/api/extension/forget", nil)
	if _, err := os.Stat(filepath.Join(d.Dir, extension.File)); !os.IsNotExist(err) {
		t.Fatalf("extension.json after forget: %v", err)
	}
	waitFor(t, "the extension to drop its token", func() bool {
		return eval(t, popup, `chrome.storage.local.get('token').then(s => s.token || '')`) == ""
	})
	if v := view(t, d); v.Paired || v.Connected {
		t.Fatalf("after forget: %+v", v)
	}

	// Five wrong codes spend the code: the popup shows a new one, and the
	// wrong tries count against the sign-in limiter.
	if _, err := popup.Reload(); err != nil {
		t.Fatal(err)
	}
	code = connect(t, popup, addr)
	wrong = fmt.Sprintf("%06d", (atoi(code)+1)%1_000_000)
	for i := range 5 {
		if r := pair(t, d, wrong); r.Code() != messages.CodeWrongCode {
			t.Fatalf("wrong code %d: %+v", i+1, r)
		}
	}
	waitFor(t, "a new code", func() bool { c := text(t, popup, "#code"); return len(c) == 6 && c != code })
	if r := pair(t, d, text(t, popup, "#code")); r.Code() != messages.CodeTooManyAttempts {
		t.Fatalf("after five wrong codes the limiter let a sixth try through: %+v", r)
	}
}

// status runs the extension's status command through the connection actor.
func status(t testing.TB, d *daemontest.Daemon) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, e := d.Extension().Call(ctx, "status", nil)
	if e != nil {
		t.Fatalf("the status command: %+v", e)
	}
	var s struct {
		Version string `json:"version"`
		Tabs    *int   `json:"tabs"`
	}
	if err := json.Unmarshal(res, &s); err != nil || s.Tabs == nil || s.Version == "" {
		t.Fatalf("status %s: %v", res, err)
	}
}

// upgrade asks for the extension socket with h and returns the status.
func upgrade(t testing.TB, addr string, h http.Header) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/api/extension/socket", nil)
	req.Header = h.Clone()
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
