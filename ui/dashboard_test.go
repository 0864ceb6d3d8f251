package ui_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// browserSide is a signed-in dashboard as a program: its cookie, CSRF
// token and Origin, sent the way the page sends them.
type browserSide struct {
	base, cookie, csrf string
}

func signIn(t testing.TB, d *daemontest.Daemon) *browserSide {
	t.Helper()
	b := &browserSide{base: "http://" + d.Addr()}
	link := d.SignInLink()
	token := link.URL[strings.Index(link.URL, "#/signin/")+len("#/signin/"):]
	status, env, res := b.send(t, "POST", "/api/session", `{"token":"`+token+`"}`, map[string]string{"Origin": b.base})
	if status != 200 {
		t.Fatalf("sign-in: %d %+v", status, env.Error)
	}
	for _, c := range res.Cookies() {
		if c.Name == "buddi_session" {
			b.cookie = c.Value
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure {
				t.Fatalf("the session cookie is %+v, want HttpOnly, SameSite=Strict, not Secure over plain http", c)
			}
		}
	}
	var me messages.Me
	if err := json.Unmarshal(env.Result, &me); err != nil || me.CSRF == "" || b.cookie == "" {
		t.Fatalf("sign-in answered %s (%v)", env.Result, err)
	}
	b.csrf = me.CSRF
	return b
}

// send makes one request and decodes the envelope.
func (b *browserSide) send(t testing.TB, method, path, body string, hdr map[string]string) (int, messages.Raw, *http.Response) {
	t.Helper()
	req, err := http.NewRequest(method, b.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if b.cookie != "" {
		req.AddCookie(&http.Cookie{Name: "buddi_session", Value: b.cookie})
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env messages.Raw
	_ = json.Unmarshal(raw, &env)
	return res.StatusCode, env, res
}

// page is what the dashboard's own page sends with a write.
func (b *browserSide) page() map[string]string {
	return map[string]string{"Origin": b.base, "X-CSRF-Token": b.csrf, "Content-Type": "application/json"}
}

func TestDashboardWritesNeedSignInCSRFAndTheirOwnOriginAndHost(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	b := signIn(t, d)
	if status, env, _ := b.send(t, "POST", "/api/browser/stop", "{}", b.page()); status != 200 || !env.OK {
		t.Fatalf("the page's own write was refused: %d %+v", status, env.Error)
	}
	d.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
	with := func(k, v string) map[string]string {
		h := b.page()
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}
	stranger := &browserSide{base: b.base, cookie: "bd_not-a-real-session"}
	cases := map[string]struct {
		who    *browserSide
		method string
		path   string
		body   string
		hdr    map[string]string
		status int
		code   messages.Code
	}{
		"no csrf token":   {b, "POST", "/api/browser/stop", "{}", with("X-CSRF-Token", ""), 403, messages.CodeBadCSRF},
		"wrong csrf":      {b, "POST", "/api/browser/stop", "{}", with("X-CSRF-Token", "0123456789abcdef0123456789abcdef"), 403, messages.CodeBadCSRF},
		"foreign origin":  {b, "POST", "/api/browser/stop", "{}", with("Origin", "http://evil.example"), 403, messages.CodeOriginRefused},
		"no origin":       {b, "POST", "/api/browser/stop", "{}", with("Origin", ""), 403, messages.CodeOriginRefused},
		"rebound host":    {b, "GET", "/api/browser/sessions", "", map[string]string{"Host": "evil.example:80"}, 403, messages.CodeHostRefused},
		"foreign read":    {b, "GET", "/api/logins", "", map[string]string{"Origin": "http://127.0.0.1:1"}, 403, messages.CodeOriginRefused},
		"unknown session": {stranger, "GET", "/api/browser/sessions", "", nil, 401, messages.CodeUnauthorized},
		"no sign-in":      {&browserSide{base: b.base}, "GET", "/api/settings/browser", "", nil, 401, messages.CodeUnauthorized},
		"bad json":        {b, "POST", "/api/browser/takeover", "{", b.page(), 400, messages.CodeBadInput},
		"unknown field":   {b, "POST", "/api/browser/takeover", `{"conversation":"c1","x":1}`, b.page(), 400, messages.CodeBadInput},
		"no conversation": {b, "POST", "/api/browser/takeover", `{}`, b.page(), 400, messages.CodeBadInput},
		"bad settings":    {b, "POST", "/api/settings/browser", `{"siteApproval":"sometimes"}`, b.page(), 400, messages.CodeBadInput},
		"unknown mode":    {b, "POST", "/api/settings/browser", `{"mode":"teleport"}`, b.page(), 400, messages.CodeBadInput},
		"missing mode":    {b, "POST", "/api/settings/browser", `{"mode":"computer"}`, b.page(), 400, messages.CodeNotAvailable},
		"relative url":    {b, "POST", "/api/browser/open", `{"url":"/x"}`, b.page(), 400, messages.CodeBadInput},
		"empty token":     {&browserSide{base: b.base}, "POST", "/api/session", `{"token":""}`, map[string]string{"Origin": b.base}, 401, messages.CodeSignInExpired},
		"token elsewhere": {&browserSide{base: b.base}, "POST", "/api/session", `{"token":"bl_x"}`, map[string]string{"Origin": "http://evil.example"}, 403, messages.CodeOriginRefused},
	}
	for name, c := range cases {
		status, env, _ := c.who.send(t, c.method, c.path, c.body, c.hdr)
		if status != c.status || env.Error == nil || env.Error.Code != c.code || env.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s with a sentence", name, status, env.Error, c.status, c.code)
		}
		if env.Error != nil && strings.Contains(env.Error.Message, "goroutine") {
			t.Errorf("%s: the answer leaks a stack trace", name)
		}
	}
	var h messages.Health
	d.Must(t, "GET", "/healthz", nil).Decode(&h)
	if h.Stopped {
		t.Fatal("a refused request stopped the browsers")
	}
}

// Failed sign-ins and failed owner tokens are limited per source, and
// the limit never stands in the way of a valid credential: after 1,000
// failures from loopback (the owner's own address), a fresh link and the
// owner token still work at once.
func TestFailuresNeverLockOutAValidCredential(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	guest := &browserSide{base: "http://" + d.Addr()}
	origin := map[string]string{"Origin": guest.base}
	for i := range 1000 {
		if status, _, _ := guest.send(t, "POST", "/api/session", `{"token":"bl_wrong"}`, origin); status != 401 && status != 429 {
			t.Fatalf("wrong token %d answered %d, want 401 or 429", i+1, status)
		}
		if r, err := d.Do("GET", "/api/browser/sessions", "not-the-owner-token", nil); err != nil || (r.Code() != messages.CodeUnauthorized && r.Code() != messages.CodeTooManyAttempts) {
			t.Fatalf("wrong owner token %d: %+v %v", i+1, r, err)
		}
	}
	status, env, _ := guest.send(t, "POST", "/api/session", `{"token":"bl_wrong"}`, origin)
	if status != 429 || env.Error == nil || env.Error.Code != messages.CodeTooManyAttempts {
		t.Fatalf("a wrong token after 1,000: %d %+v, want 429 too_many_attempts", status, env.Error)
	}
	if r, _ := d.Do("GET", "/api/browser/sessions", "not-the-owner-token", nil); r.Code() != messages.CodeTooManyAttempts {
		t.Fatalf("a wrong owner token after 1,000: %+v, want too_many_attempts", r)
	}
	link := d.SignInLink()
	token := link.URL[strings.Index(link.URL, "#/signin/")+len("#/signin/"):]
	if status, env, _ := guest.send(t, "POST", "/api/session", `{"token":"`+token+`"}`, origin); status != 200 {
		t.Fatalf("a fresh link after 1,000 failures: %d %+v, want it to sign in", status, env.Error)
	}
	if r := d.Must(t, "GET", "/api/browser/sessions", nil); !r.OK {
		t.Fatalf("the owner token after 1,000 failures: %+v", r.Error)
	}
}

func TestASignInLinkWorksOnce(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	link := d.SignInLink()
	token := link.URL[strings.Index(link.URL, "#/signin/")+len("#/signin/"):]
	guest := &browserSide{base: "http://" + d.Addr()}
	origin := map[string]string{"Origin": guest.base}
	if status, _, _ := guest.send(t, "POST", "/api/session", `{"token":"`+token+`"}`, origin); status != 200 {
		t.Fatalf("the link did not sign in: %d", status)
	}
	if status, env, _ := guest.send(t, "POST", "/api/session", `{"token":"`+token+`"}`, origin); status != 401 || env.Error.Code != messages.CodeSignInExpired {
		t.Fatalf("the link worked twice: %d %+v", status, env.Error)
	}
}

// socketEvents records a Go client's view of the events socket.
type socketEvents struct {
	gws.BuiltinEventHandler
	frames chan messages.Frame
	closed chan error
}

func (s *socketEvents) OnMessage(_ *gws.Conn, m *gws.Message) {
	var f messages.Frame
	if json.Unmarshal(m.Bytes(), &f) == nil {
		s.frames <- f
	}
	_ = m.Close()
}

func (s *socketEvents) OnClose(_ *gws.Conn, err error) { s.closed <- err }

func dial(t *testing.T, b *browserSide, origin string) (*socketEvents, error) {
	t.Helper()
	ev := &socketEvents{frames: make(chan messages.Frame, 64), closed: make(chan error, 1)}
	hdr := http.Header{"Origin": {origin}}
	if b.cookie != "" {
		hdr.Set("Cookie", "buddi_session="+b.cookie)
	}
	conn, _, err := gws.NewClient(ev, &gws.ClientOption{Addr: "ws" + strings.TrimPrefix(b.base, "http") + "/api/events", RequestHeader: hdr})
	if err != nil {
		return nil, err
	}
	go conn.ReadLoop()
	t.Cleanup(func() { _ = conn.NetConn().Close() })
	return ev, nil
}

func TestEventsSocketSaysHelloAndEndsWhenItsDeviceIsSignedOut(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	b := signIn(t, d)
	if _, err := dial(t, b, "http://evil.example"); err == nil {
		t.Fatal("the events socket opened for a page on another origin")
	}
	if _, err := dial(t, &browserSide{base: b.base}, b.base); err == nil {
		t.Fatal("the events socket opened without a sign-in")
	}
	ev, err := dial(t, b, b.base)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case f := <-ev.frames:
		if f.Type != messages.FrameHello || f.Hello == nil || f.Hello.Mode != "sim" {
			t.Fatalf("first frame %+v, want a hello", f)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no hello")
	}
	d.Must(t, "POST", "/api/browser/stop", nil)
	for f := range ev.frames {
		if f.Type == messages.FrameStop && f.Stop.Stopped {
			break
		}
	}
	var devs messages.DeviceList
	d.Must(t, "GET", "/api/devices", nil).Decode(&devs)
	if len(devs) != 1 {
		t.Fatalf("devices %+v, want this one", devs)
	}
	d.Must(t, "POST", "/api/devices/signout", messages.OwnerBody{ID: devs[0].ID})
	select {
	case err := <-ev.closed:
		var ce *gws.CloseError
		if !errors.As(err, &ce) || ce.Code != 4401 {
			t.Fatalf("closed with %v, want 4401 (signed out)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the socket of a signed-out device stayed open")
	}
	if status, _, _ := b.send(t, "GET", "/api/session", "", nil); status != 401 {
		t.Fatalf("the signed-out cookie still works: %d", status)
	}
}

func TestMetricsAreInThePrometheusFormatForLocalScrapers(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	tok := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 10)
	d.Observe(t, tok, "c1")
	d.WaitSession(t, "c1", "ready") // the session says it is ready a moment after it answers
	res, err := http.Get("http://" + d.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, want := range []string{`buddi_sessions{state="ready"} 1`, `buddi_acts_total{action="observe",code=""} 1`,
		"buddi_act_seconds_count 1", "buddi_ledger_commit_seconds_count", "buddi_session_restarts_total 0",
		"buddi_dashboard_connections 0", "buddi_hand_connections 0", "# TYPE buddi_egress_refusals_total counter"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	// The store holds the agent and the task: both sizes are above zero.
	for _, kind := range []string{"disk", "live"} {
		if !regexp.MustCompile(`(?m)^buddi_store_bytes\{kind="` + kind + `"\} [1-9][0-9]*$`).Match(body) {
			t.Errorf("/metrics lacks the store's %s size:\n%s", kind, body)
		}
	}
	req, _ := http.NewRequest("GET", "http://"+d.Addr()+"/metrics", nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("/metrics through a proxy without the owner token: %d, want 401", res.StatusCode)
	}
}
