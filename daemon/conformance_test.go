package daemon_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// Stop closes every conversation's tabs, not only refusing their work.
func TestStopClosesEveryConversationsTabs(t *testing.T) {
	mode := sim.NewMode(sim.Config{}, 1)
	d := daemontest.Start(t, "", daemon.Options{Mode: mode})
	token := d.AddAgent(t, "ada", false)
	for _, c := range []string{"c1", "c2"} {
		d.Task(t, "ada", c, 80)
		wantCode(t, d.Act(t, token, c, nav(sim.Origin+"/p/1")), "")
	}
	drv := mode.Drivers()[0]
	if drv.Conversation("c1") == nil || drv.Conversation("c2") == nil {
		t.Fatal("the conversations have no tabs before the Stop")
	}
	d.Must(t, "POST", "/api/browser/stop", nil)
	for _, c := range []string{"c1", "c2"} {
		if drv.Conversation(c) != nil {
			t.Errorf("%s still has its tabs after the Stop was answered", c)
		}
	}
}

func TestAnAgentTokenIsRefusedOnOwnerRoutes(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	for _, route := range []struct{ method, path string }{
		{"GET", "/api/browser/sessions"}, {"POST", "/api/browser/stop"}, {"POST", "/api/browser/release"},
		{"GET", "/api/approvals"}, {"POST", "/api/approvals"}, {"GET", "/api/agents"}, {"POST", "/api/tasks"},
		{"GET", "/api/browser/sites"}, {"POST", "/api/browser/sites/revoke"}, {"GET", "/api/browser/logins"},
		{"POST", "/api/browser/logins/signout"}, {"POST", "/api/browser/install"},
	} {
		// An agent's token is a failed owner token: past 5 from this
		// address, the refusal says to wait instead.
		r, err := d.Do(route.method, route.path, token, map[string]any{"conversation": "c1", "all": true, "site": "x"})
		refused := r != nil && (r.Status == 401 && r.Code() == "unauthorized" || r.Status == 429 && r.Code() == "too_many_attempts")
		if err != nil || !refused {
			t.Errorf("%s %s with an agent's token: %v %+v", route.method, route.path, err, r)
		}
	}
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "observe"}), "") // nothing was stopped or released
}

// logged keeps the messages logged at info and above.
type logged struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logged) Enabled(context.Context, slog.Level) bool { return true }
func (l *logged) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.msgs = append(l.msgs, r.Message)
	l.mu.Unlock()
	return nil
}
func (l *logged) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logged) WithGroup(string) slog.Handler      { return l }
func (l *logged) count(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.msgs {
		if m == msg {
			n++
		}
	}
	return n
}

func TestTheNinthScreenshotDropsTheOldestWithALogLine(t *testing.T) {
	logs := &logged{}
	o := simOpts(sim.Config{}, nil)
	o.Log = slog.New(logs)
	d, token := setup(t, o, "c1", 80)
	wantCode(t, d.Act(t, token, "c1", nav(sim.Origin+"/p/1")), "")
	for i := range 9 {
		wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "screenshot"}), "")
		if n := logs.count("dropped the oldest screenshot"); n != max(0, i-7) {
			t.Fatalf("after %d screenshots %d drops were logged, want %d", i+1, n, max(0, i-7))
		}
	}
}

// Rule 15: the browser cannot be pointed at buddi itself, not even when
// the owner wrote its address as a preview origin.
func TestBuddisOwnAddressIsRefusedEvenAsAPreview(t *testing.T) {
	addr := daemontest.FreeAddr(t)
	port := addr[strings.LastIndex(addr, ":")+1:]
	o := simOpts(sim.Config{}, nil)
	o.Config.Addr = addr
	o.Config.Egress.PreviewOrigins = []string{"http://" + addr, "http://localhost:" + port}
	d, token := setup(t, o, "c1", 80)
	for _, url := range []string{"http://" + addr + "/api/browser/sessions", "http://localhost:" + port + "/", "http://[::1]:" + port + "/mcp"} {
		r := d.Act(t, token, "c1", nav(url))
		wantCode(t, r, "buddi_address")
		if !strings.Contains(r.Error.Message, "buddi itself") {
			t.Errorf("%s: the refusal says %q", url, r.Error.Message)
		}
	}
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "http://" + addr + "/", "urlSource": "page_link"}), "buddi_address")
}

// installing is the sim mode with a browser install: a fake at the seam
// the daemon owns (drivers.Installer), since the real one downloads.
type installing struct {
	*sim.Mode
	found   bool
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	runs    int
}

func (m *installing) Install(ctx context.Context, progress io.Writer) error {
	m.mu.Lock()
	m.runs++
	m.mu.Unlock()
	io.WriteString(progress, "Downloading Chromium 1%\nDownloading Chromium 100%\n")
	m.started <- struct{}{}
	select {
	case <-m.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	io.WriteString(progress, "Chromium installed")
	return nil
}

func (m *installing) Status(ctx context.Context) drivers.Status {
	st := m.Mode.Status(ctx)
	st.Found = m.found
	return st
}

func newInstalling(found bool) *installing {
	return &installing{Mode: sim.NewMode(sim.Config{}, 1), found: found,
		started: make(chan struct{}, 1), release: make(chan struct{})}
}

func TestTheBrowserInstallReportsItsProgress(t *testing.T) {
	m := newInstalling(true)
	d := daemontest.Start(t, "", daemon.Options{Mode: m})
	sub := d.Events(t, events.Filter{Kinds: messages.KindInstall})
	var st messages.InstallState
	d.Must(t, "POST", "/api/browser/install", nil).Decode(&st)
	if st.State != messages.InstallRunning {
		t.Fatalf("the install answered %+v, want running", st)
	}
	<-m.started
	d.Must(t, "POST", "/api/browser/install", nil).Decode(&st) // a second ask reports the same install
	daemontest.Await(t, sub, "for the progress lines", func(ev messages.Event) bool {
		return len(ev.(*messages.InstallChanged).State.Lines) == 2
	})
	close(m.release)
	daemontest.Await(t, sub, "for the install to end", func(ev messages.Event) bool {
		return ev.(*messages.InstallChanged).State.State == messages.InstallDone
	})
	d.Must(t, "GET", "/api/browser/install", nil).Decode(&st)
	if st.State != messages.InstallDone || len(st.Lines) != 3 || st.Lines[2] != "Chromium installed" || m.runs != 1 {
		t.Fatalf("after the install: %+v, %d runs", st, m.runs)
	}
}

func TestFirstRunSaysNoBrowserAndDownloadsOnlyWhenAsked(t *testing.T) {
	for _, asked := range []bool{false, true} {
		m := newInstalling(false)
		var out bytes.Buffer
		o := daemon.Options{Mode: m, Out: &out}
		o.Config.BrowserInstall = asked
		daemontest.Start(t, "", o)
		if !strings.Contains(out.String(), "No browser installed for the agents yet") {
			t.Fatalf("BUDDI_BROWSER_INSTALL=%v: serve said:\n%s", asked, out.String())
		}
		if asked {
			<-m.started
			close(m.release)
		} else if m.runs != 0 || !strings.Contains(out.String(), "BUDDI_BROWSER_INSTALL=1") {
			t.Fatalf("without BUDDI_BROWSER_INSTALL the install ran %d times; serve said:\n%s", m.runs, out.String())
		}
	}
}

func TestLoginsNeedAModeThatKeepsThem(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	r, err := d.Do("GET", "/api/browser/logins", d.Owner, nil)
	if err != nil || r.Code() != "not_supported" || r.Status != 409 {
		t.Fatalf("logins in the sim mode: %v %+v", err, r)
	}
}

// Rule 16: the tool descriptions say what the install lets the browser
// open when they are registered; the dispatch-time refusal stays.
func TestToolDescriptionsFollowTheInstall(t *testing.T) {
	for name, c := range map[string]struct {
		setup func(*daemon.Options)
		want  string
	}{
		"air-gap":   {func(o *daemon.Options) { o.Config.Egress.AirGap = true }, "Air-gap is on in this install: the browser opens only the owner's preview origins (https://sim.localhost)"},
		"host list": {func(o *daemon.Options) { o.Config.Egress.Hosts = []string{"docs.example.com"} }, "only these hosts: docs.example.com"},
	} {
		t.Run(name, func(t *testing.T) {
			o := simOpts(sim.Config{}, nil)
			c.setup(&o)
			d, token := setup(t, o, "c1", 80)
			cs, err := dialMCP(t, d.Addr(), token, "c1")
			if err != nil {
				t.Fatal(err)
			}
			tools, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{})
			if err != nil {
				t.Fatal(err)
			}
			desc := ""
			for _, tl := range tools.Tools {
				if tl.Name == buddimcp.ToolAct {
					desc = tl.Description
				}
			}
			if !strings.Contains(desc, c.want) {
				t.Fatalf("browser_act's description does not say %q:\n%s", c.want, desc)
			}
			st := d.Tool(t, token, "browser.status", "c1", map[string]any{})
			if _, ok := st.Map()["reach"].(map[string]any); !ok {
				t.Fatalf("browser.status says nothing of what the browser can reach: %s", st.Result)
			}
			want := "air_gap"
			if name == "host list" {
				want = "host_not_allowed"
			}
			wantCode(t, d.Act(t, token, "c1", nav("https://example.org/")), want)
		})
	}
}
