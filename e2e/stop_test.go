package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// surfaces reads one buddi serve the ways its owner can: the dashboard on
// a laptop, `buddi sessions`, Telegram's /browser and /healthz.
type surfaces struct {
	b      *buddi
	fake   *telegramtest.Server
	owner  telegramtest.User
	laptop pw.Page
	said   int    // Telegram messages read so far
	tok    string // the agent's, whose browser.status is a surface too
}

func (s *surfaces) cli(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(bin, "sessions", "--data", s.b.dir, "--addr", s.b.addr).CombinedOutput()
	if err != nil {
		t.Fatalf("buddi sessions: %v\n%s", err, out)
	}
	return string(out)
}

func (s *surfaces) telegram(t *testing.T) string {
	t.Helper()
	s.fake.Push(telegramtest.Text(s.owner, "/browser"))
	c, _ := s.fake.Await(t, "sendMessage", s.said, "the answer to /browser", func(c telegramtest.Call) bool {
		return strings.HasPrefix(c.Fields["text"], "Mode:")
	})
	s.said = len(s.fake.Calls("sendMessage"))
	return c.Fields["text"]
}

func (s *surfaces) health(t *testing.T) messages.Health {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://"+s.b.addr+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+s.b.Owner)
	res, err := s.b.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h messages.Health
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// each checks that every surface shows both sessions in state, as label
// on the dashboard's cards and as telegram in the /browser answer of c1's
// chat.
func (s *surfaces) each(t *testing.T, state, label, telegram string) {
	t.Helper()
	both := shown{state, label, telegram}
	s.read(t, s.laptop, map[string]shown{"c1": both, "c2": both})
}

// twoSessions starts buddi serve with real Chromium and Telegram's Bot
// API faked, paired to the owner with the chat bound to c1, and agent ada
// with a task and a page of site in each of c1 and c2.
func twoSessions(t *testing.T) (*surfaces, *site) {
	t.Helper()
	fake := telegramtest.Start(t, 2*time.Second)
	site := newSite(t)
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+site.URL, "BUDDI_TELEGRAM_TOKEN="+telegramtest.Token, "BUDDI_TELEGRAM_API="+fake.URL)
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	b.Task(t, "ada", "c2", 80)
	s := &surfaces{b: b, fake: fake, owner: telegramtest.User{ID: 4242, Name: "Ada"}, tok: tok}
	fake.AwaitCount(t, "getUpdates", 1)
	var link messages.TelegramLink
	b.Must(t, "POST", "/api/telegram/pair", nil).Decode(&link)
	u, err := url.Parse(link.Link)
	if err != nil {
		t.Fatal(err)
	}
	fake.Push(telegramtest.Text(s.owner, "/start "+u.Query().Get("start")))
	fake.Await(t, "sendMessage", 0, "welcoming the owner", func(c telegramtest.Call) bool { return strings.HasPrefix(c.Fields["text"], "Paired") })
	s.said = len(fake.Calls("sendMessage"))
	b.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: "c1"})
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": site.URL + "/"}))
	ok(t, b.Act(t, tok, "c2", in{"action": "navigate", "url": site.URL + "/next"}))
	return s, site
}

// Stop all, then Resume access, on buddi serve with real Chromium: as soon
// as the Stop is answered every surface shows each session stopped with
// its tabs closed; after the resume every surface shows it ready, the
// dashboard says what the agent may do next, and the agent's next acts
// answer exactly that (an action on its old observation is refused, a new
// observation works, on a new tab).
func TestE2EStopAndResumeReadTheSameOnEverySurface(t *testing.T) {
	s, site := twoSessions(t)
	b, tok := s.b, s.tok
	old := b.Observe(t, tok, "c1")

	s.laptop = webtest.NewPage(t, webtest.Browser(t), pw.BrowserNewContextOptions{Viewport: &pw.Size{Width: 1280, Height: 800}})
	signIn(t, b, s.laptop)
	s.each(t, messages.StateReady, "Ready", "ready")

	stopBox := s.laptop.Locator(".stop-box")
	start := time.Now()
	webtest.Click(t, stopBox.Locator("button", pw.LocatorLocatorOptions{HasText: "Stop all browsers"}))
	webtest.Visible(t, stopBox.Locator(".said", pw.LocatorLocatorOptions{HasText: "2 sessions dropped their work and closed their tabs"}))
	t.Logf("the Stop was answered %s after the press", time.Since(start).Round(time.Millisecond))
	s.each(t, messages.StateStopped, "Stopped: tabs closed", "stopped: its tabs are closed")
	t.Logf("every surface read stopped %s after the press", time.Since(start).Round(time.Millisecond))
	if cli := s.cli(t); strings.Contains(cli, site.URL) {
		t.Errorf("buddi sessions still shows a page of a stopped session:\n%s", cli)
	}
	daemontest.WantCode(t, b.Act(t, tok, "c1", in{"action": "observe"}), "stopped")

	webtest.Click(t, stopBox.Locator("button", pw.LocatorLocatorOptions{HasText: "Resume access"}))
	said := stopBox.Locator(".said", pw.LocatorLocatorOptions{HasText: "Browser access is resumed"})
	webtest.Visible(t, said)
	text, _ := said.TextContent()
	if text != messages.ResumedWords {
		t.Errorf("after Resume access the dashboard says %q; the other surfaces say %q", text, messages.ResumedWords)
	}
	s.each(t, messages.StateReady, "Ready", "ready")
	daemontest.WantCode(t, b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(old),
		"target": target1(daemontest.Ref(t, old, "link", "Next page"))}), "stale_observation")
	fresh := b.Observe(t, tok, "c1")
	if u, _ := fresh["url"].(string); strings.HasPrefix(u, site.URL) {
		t.Fatalf("after the Stop the agent's new observation is of %s, a page the Stop closed", u)
	}
}

// signIn signs p in to b's dashboard with a one-time link.
func signIn(t *testing.T, b *buddi, p pw.Page) {
	t.Helper()
	link, err := b.API.Owner(b.Owner).SignInLink(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Goto(link.URL); err != nil {
		t.Fatal(err)
	}
	webtest.Visible(t, p.Locator("h1", pw.PageLocatorOptions{HasText: "Host browser"}))
}
