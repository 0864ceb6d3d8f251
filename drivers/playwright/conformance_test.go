package playwright_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// refusals records what OnRefused was told.
type refusals struct {
	mu   sync.Mutex
	urls []string
}

func (r *refusals) add(conv, url string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.urls = append(r.urls, conv+" "+url+" "+string(drivers.CodeOf(err)))
}

func (r *refusals) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// Rule 4's browser half: every URL the browser is kept from (a typed
// navigation, a redirect hop, a link a click followed, a history step, a
// popup) is told to OnRefused, once, with the conversation.
func TestEveryRefusedURLIsToldOnce(t *testing.T) {
	var later atomic.Bool // from now on /later is refused too
	rec := &refusals{}
	d := browsertest.New(t, func(c *playwright.Config) {
		c.CheckURL = func(raw string) error {
			if strings.Contains(raw, "/blocked") || later.Load() && strings.Contains(raw, "/later") {
				return &policyError{"air_gap", "Air-gap is on."}
			}
			return nil
		}
		c.OnRefused = rec.add
	})
	s := newSite(t)
	s.page("/start", "Start", `<a href="/blocked/link">Link</a> <a href="/hop">Hop</a>
<button onclick="window.open('/blocked/popup')">Popup</button>`)
	s.page("/later", "Later", `later`)
	s.mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/blocked/hop", http.StatusFound)
	})
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/later")
	navigate(t, tabs, s.URL+"/start")
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/blocked/typed"})
	wantCode(t, err, "air_gap")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	for _, name := range []string{"Link", "Hop"} {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "link", name)})
		wantCode(t, err, "air_gap")
	}
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Popup")})
	wantCode(t, err, "air_gap")
	later.Store(true)
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Back})
	wantCode(t, err, "air_gap")
	want := []string{"/blocked/typed", "/blocked/link", "/blocked/hop", "/blocked/popup", "/later"}
	got := rec.list()
	if len(got) != len(want) {
		t.Fatalf("OnRefused was told %d times: %q; want once each for %v", len(got), got, want)
	}
	for i, w := range want {
		if got[i] != "c1 "+s.URL+w+" air_gap" {
			t.Errorf("refusal %d is %q, want %s", i, got[i], w)
		}
	}
	if n := s.hit("GET /later"); n != 1 {
		t.Fatalf("/later was loaded %d times; the refused history step reached the server", n)
	}
}

// Rule 11 in the browser: observed elements carry what a semantic target
// matches (label, placeholder, text, frame); a target picked from a tree
// that changed since is refused before any input.
func TestSemanticTargetsNeedTheTreeUnchanged(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/form", "Form", `<form action="/sent"><label>Email <input name="email" placeholder="you@example.com"></label>
<button>Send</button></form><p id="news">Nothing yet</p>
<button onclick="document.getElementById('news').textContent='Breaking'">Change</button>
<iframe src="/inner" title="Inner"></iframe>`)
	s.page("/inner", "Inner", `<button>Inside</button>`)
	s.page("/sent", "Sent", `sent`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/form")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	email := target(t, obs, "textbox", "Email")
	if email.Label != "Email" || email.Placeholder != "you@example.com" || email.Frame != 0 {
		t.Fatalf("the field's target is %+v", email)
	}
	if b := target(t, obs, "button", "Send"); b.Text != "Send" {
		t.Fatalf("the button's target is %+v", b)
	}
	if in := target(t, obs, "button", "Inside"); in.Frame != 1 {
		t.Fatalf("the framed button is in frame %d, want 1", in.Frame)
	}
	// Unchanged: the semantic target goes through.
	fill := *email
	fill.Tree = obs.Tree
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: &fill, Value: "ada@example.com"})
	obs = observe(t, tabs, drivers.ObserveOptions{})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Change")})
	// The text changed: a ref still works, a semantic target does not.
	send := *target(t, obs, "button", "Send")
	send.Tree = obs.Tree
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: &send})
	wantCode(t, err, drivers.CodeTargetGone)
	if n := s.hit("GET /sent"); n != 0 {
		t.Fatal("the refused click submitted the form")
	}
	send.Tree = ""
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: &send})
	if n := s.hit("GET /sent"); n != 1 {
		t.Fatalf("the click by ref submitted %d times", n)
	}
}

func TestWaitForARef(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/later", "Later", `<button id="b" style="visibility:hidden">Go</button>
<button onclick="setTimeout(()=>{document.getElementById('b').style.visibility='visible'}, 300)">Show</button>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/later")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	hidden := target(t, obs, "button", "Go")
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Target: hidden}, Timeout: 300 * time.Millisecond})
	wantCode(t, err, drivers.CodeTimeout)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Show")})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Target: hidden}, Timeout: 10 * time.Second})
}

func TestServiceWorkersAreBlocked(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.mux.HandleFunc("/sw.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`self.addEventListener('fetch', () => {});`))
	})
	s.page("/sw", "SW", `<p id="r">waiting</p><script>
const say = (s) => { document.getElementById('r').textContent = s; };
const f = document.createElement('iframe'); document.body.appendChild(f);
const fresh = f.contentWindow.ServiceWorkerContainer.prototype.register; // another realm's register
Promise.all([navigator.serviceWorker.register('/sw.js'), fresh.call(navigator.serviceWorker, '/sw.js', {scope: '/x/'})])
  .then(() => navigator.serviceWorker.getRegistrations())
  .then((r) => say('registered ' + r.length), (e) => say('refused ' + e.name));
</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/sw")
	// Once registering has answered, a browser that allows workers lists
	// them; this one lists none and never fetched the worker's script.
	out, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "registered 0"}, Timeout: 10 * time.Second})
	if err != nil {
		dom := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM})
		t.Fatalf("%v: the page says %q", err, dom.Text)
	}
	_ = out
	if n := s.hit("GET /sw.js"); n != 0 {
		t.Fatalf("the worker's script was fetched %d times", n)
	}
}

// fullRes is capped at 4096 px, and a default screenshot at 1280: a
// viewport wider than both tells them apart.
func TestScreenshotCaps(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/wide", "Wide", `<div style="width:100%;height:100px;background:linear-gradient(90deg,red,blue)"></div>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/wide")
	for _, c := range []struct{ viewport, def, full int }{{2400, 1280, 2400}, {5000, 1280, 4096}} {
		if err := playwright.SetViewport(testCtx(t), tabs, c.viewport, 120); err != nil {
			t.Fatal(err)
		}
		def := mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot})
		full := mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot, FullRes: true})
		if def.Width != c.def || full.Width != c.full {
			t.Errorf("a %d px viewport gave %d px by default and %d px at full resolution; want %d and %d",
				c.viewport, def.Width, full.Width, c.def, c.full)
		}
	}
}

// A navigate that times out checks where the tab is: landed at the
// destination, it is load_pending, not a failure.
func TestANavigateThatTimesOutChecksWhereItLanded(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	var calls atomic.Int32
	release := make(chan struct{})
	s.mux.HandleFunc("/slow-again", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 {
			select { // the second load answers only when the test is done with it
			case <-release:
			case <-r.Context().Done():
			}
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<title>Slow</title>slow`))
	})
	t.Cleanup(func() { close(release) })
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/slow-again")
	out, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/slow-again", Timeout: 500 * time.Millisecond})
	if err != nil || out.Result != drivers.LoadPending || out.URL != s.URL+"/slow-again" {
		t.Fatalf("a navigate that timed out where the tab already is: %+v, %v; want load_pending", out, err)
	}
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/slow-again?other", Timeout: 500 * time.Millisecond})
	wantCode(t, err, drivers.CodeTimeout)
}

// Rule 13 in the browser: the sites holding cookies or stored data are
// listed, and signing one out clears both.
func TestLoginsAreListedAndSignedOut(t *testing.T) {
	d := browsertest.New(t)
	s := newSite(t)
	s.mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "sid=secret-session; Max-Age=3600; Path=/")
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<title>In</title><p id="r">storing</p><script>
localStorage.setItem('k', 'v');
const req = indexedDB.open('db', 1);
req.onupgradeneeded = () => req.result.createObjectStore('s');
req.onsuccess = () => { const tx = req.result.transaction('s', 'readwrite'); tx.objectStore('s').put('v', 'k');
  tx.oncomplete = () => { document.getElementById('r').textContent = 'stored'; }; };
</script>`))
	})
	s.mux.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		c, err := r.Cookie("sid")
		who := "nobody"
		if err == nil {
			who = c.Value
		}
		_, _ = w.Write([]byte(`<title>Who</title><p>` + who + `</p><p id="ls"></p><script>document.getElementById('ls').textContent = 'local ' + localStorage.getItem('k');</script>`))
	})
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/login")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "stored"}, Timeout: 10 * time.Second})
	list, err := d.Logins(testCtx(t))
	if err != nil || len(list) != 1 || list[0].Site != "127.0.0.1" || list[0].Cookies != 1 || !list[0].Storage {
		t.Fatalf("logins = %+v, %v; want 127.0.0.1 with one cookie and stored data", list, err)
	}
	sites, err := d.SignOut(testCtx(t), "127.0.0.1")
	if err != nil || len(sites) != 1 || sites[0] != "127.0.0.1" {
		t.Fatalf("sign-out = %v, %v", sites, err)
	}
	if list, err := d.Logins(testCtx(t)); err != nil || len(list) != 0 {
		t.Fatalf("after signing out: %+v, %v", list, err)
	}
	navigate(t, tabs, s.URL+"/whoami")
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM})
	if !strings.Contains(out.Text, "nobody") || !strings.Contains(out.Text, "local null") {
		t.Fatalf("the site still knows the agent after signing out: %q", out.Text)
	}
}

func TestFindLooksWhereTheSpecSays(t *testing.T) {
	home := t.TempDir()
	pwLinux := home + "/.cache/ms-playwright/chromium-1200/chrome-linux/chrome"
	pwMac := home + "/Library/Caches/ms-playwright/chromium-1200/chrome-mac/Chromium.app/Contents/MacOS/Chromium"
	for _, p := range []string{pwLinux, pwMac} {
		mkfile(t, p)
	}
	macChrome := "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
	for name, c := range map[string]struct {
		goos   string
		exists []string
		path   map[string]string
		want   string
	}{
		"linux: playwright first":   {"linux", []string{pwLinux, "/opt/google/chrome/chrome"}, map[string]string{"chromium": "/usr/bin/chromium"}, pwLinux},
		"linux: then /opt chrome":   {"linux", []string{"/opt/google/chrome/chrome"}, map[string]string{"chromium": "/usr/bin/chromium"}, "/opt/google/chrome/chrome"},
		"linux: then google-chrome": {"linux", nil, map[string]string{"google-chrome-stable": "/usr/bin/google-chrome-stable", "chromium": "/usr/bin/chromium"}, "/usr/bin/google-chrome-stable"},
		"linux: chromium last":      {"linux", nil, map[string]string{"chromium": "/usr/bin/chromium"}, "/usr/bin/chromium"},
		"mac: playwright first":     {"darwin", []string{pwMac, macChrome}, nil, pwMac},
		"mac: then Google Chrome":   {"darwin", []string{macChrome}, nil, macChrome},
	} {
		exists := map[string]bool{}
		for _, p := range c.exists {
			exists[p] = true
		}
		if name == "linux: then /opt chrome" || name == "mac: then Google Chrome" {
			exists[pwLinux], exists[pwMac] = false, false
		}
		got, err := playwright.FindIn(playwright.Config{}, c.goos, home, exists, c.path)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, c.want)
		}
	}
	_, err := playwright.FindIn(playwright.Config{}, "linux", home, nil, nil)
	wantCode(t, err, drivers.CodeNoBrowser)
	if !strings.Contains(playwright.Message(err), "No browser installed for the agents yet") {
		t.Errorf("with no browser: %q", playwright.Message(err))
	}
}

// Rule 14: a launch that fails for missing libraries or for want of a
// sandbox says so in one sentence, with the command to run, in
// browser.status and the failed call alike. The browser here is a stand-in
// that fails the way Chromium does.
func TestLaunchFailuresAreOneSentenceWithTheCommand(t *testing.T) {
	for name, c := range map[string]struct{ stderr, want string }{
		"libraries": {"chrome: error while loading shared libraries: libnss3.so: cannot open shared object file", "install-deps chromium`"},
		"sandbox":   {"[FATAL:zygote_host_impl_linux.cc] No usable sandbox! Update your kernel", "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"},
	} {
		t.Run(name, func(t *testing.T) {
			bin := t.TempDir()
			mkexec(t, bin+"/google-chrome", "#!/bin/sh\necho '"+c.stderr+"' >&2\nexit 127\n")
			t.Setenv("PATH", bin+":"+osPath())
			t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
			if os.Geteuid() == 0 {
				t.Setenv(playwright.EnvNoSandbox, "1")
			}
			d, err := playwright.New(playwright.ConfigFromEnv(t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			_, err = d.Open(testCtx(t), "c1")
			wantCode(t, err, drivers.CodeNoBrowser)
			msg := playwright.Message(err)
			if !strings.Contains(msg, c.want) || strings.Count(msg, ". ") > 0 {
				t.Fatalf("the failed call says %q; want one sentence with %q", msg, c.want)
			}
			if st := d.Status(testCtx(t)); st.Problem != msg {
				t.Fatalf("browser.status says %q; want the same sentence", st.Problem)
			}
		})
	}
	if !strings.Contains(playwright.MsgNoSandbox, "/etc/sysctl.d/60-buddi-browser.conf") || !strings.Contains(playwright.MsgNoSandbox, "--security-opt seccomp=unconfined") {
		t.Fatal("the sandbox sentence names neither the sysctl.d file nor the container flag")
	}
}

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mkexec(t *testing.T, p, script string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func osPath() string { return os.Getenv("PATH") }
