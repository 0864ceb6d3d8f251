package telegram_test

import (
	"bytes"
	"image/jpeg"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// agentIn pairs the chat, adds agent ada with a task in each conversation
// and binds them.
func (r *rig) agentIn(t testing.TB, convs ...string) string {
	t.Helper()
	r.pair(t)
	token := r.AddAgent(t, "ada", false)
	for _, c := range convs {
		r.Task(t, "ada", c, 80)
		r.bind(t, c)
	}
	return token
}

// photo waits for the n-th photo (from 1) and returns it.
func (r *rig) photo(t testing.TB, n int) telegramtest.Call {
	t.Helper()
	r.fake.AwaitCount(t, "sendPhoto", n)
	return r.fake.Calls("sendPhoto")[n-1]
}

func TestAPhotoPerStepWithItsCaption(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1", "c2")
	local := "http://" + r.Addr() + "/#/chat/ada/c1?tab=browser"

	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	p := r.photo(t, 1)
	want := []string{"Page 1 - sim.localhost", "Opened https://sim.localhost/p/1", "Step 1 of 80",
		"Take over: open " + local + " on the computer buddi runs on."}
	if got := strings.Split(p.Fields["caption"], "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("caption %q, want %q", got, want)
	}
	if p.Fields["chat_id"] != "4242" || len(buttons(t, p)) != 0 {
		t.Fatalf("photo to chat %s with buttons %v; a loopback link is no button", p.Fields["chat_id"], buttons(t, p))
	}
	f := p.Files["photo"]
	if f.Name != "" {
		t.Fatalf("the photo's part is named %q", f.Name)
	}
	if _, err := jpeg.DecodeConfig(bytes.NewReader(f.Data)); err != nil {
		t.Fatalf("the photo is not a JPEG: %v", err)
	}

	// Reading a page already sent sends nothing: c2's photo, taken after
	// both reads, is the next photo.
	r.act(t, token, "c1", map[string]any{"action": "observe"})
	obs := r.act(t, token, "c1", map[string]any{"action": "observe"}).Map()
	r.act(t, token, "c2", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"})
	if p := r.photo(t, 2); !strings.Contains(p.Fields["caption"], "Page 2") {
		t.Fatalf("the photo after two reads of c1's page is %q, want c2's", p.Fields["caption"])
	}

	link := daemontest.Ref(t, obs, "link", "")
	r.act(t, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}})
	if c := r.photo(t, 3).Fields["caption"]; !strings.Contains(c, "\nClicked link “") || !strings.Contains(c, "\nStep 4 of 80") {
		t.Fatalf("the click's caption %q", c)
	}
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/nowhere"})
	if c := r.photo(t, 4).Fields["caption"]; !strings.Contains(c, "\nStep 5 of 80") || !strings.Contains(c, "\nFailed: ") || !strings.Contains(c, "/nowhere") {
		t.Fatalf("the failed step's caption %q", c)
	}
	if n := len(r.fake.Calls("sendPhoto")); n != 4 {
		t.Fatalf("%d photos for 4 steps that changed or failed a page", n)
	}
}

func TestAPageOutsideTheHostsIsReportedInWordsOnly(t *testing.T) {
	r := start(t, options{cfg: func(c *config.Config) { c.Egress = egress.Config{Hosts: []string{"example.com"}} }})
	token := r.agentIn(t, "c1")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	text, _ := r.awaitText(t, "Opened https://sim.localhost/p/1")
	if !strings.Contains(text, "Step 1 of 80") || !strings.Contains(text, "No photo: the page is not on this install's browser hosts") {
		t.Fatalf("the step in words: %q", text)
	}
	if n := len(r.fake.Calls("sendPhoto")); n != 0 {
		t.Fatalf("%d photos of a page outside the hosts left the machine", n)
	}
}

func TestTakeOverIsAButtonOnThePublicOrigin(t *testing.T) {
	r := start(t, options{cfg: func(c *config.Config) { c.PublicOrigin = "https://buddi.example.ts.net" }})
	token := r.agentIn(t, "c1")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	p := r.photo(t, 1)
	if got := buttons(t, p)["Take over"]; got != "https://buddi.example.ts.net/#/chat/ada/c1?tab=browser" {
		t.Fatalf("Take over goes to %q", got)
	}
	if strings.Contains(p.Fields["caption"], "Take over") {
		t.Fatalf("the caption repeats the link: %q", p.Fields["caption"])
	}
}

func TestARefusedButtonDoesNotDropThePhoto(t *testing.T) {
	r := start(t, options{cfg: func(c *config.Config) { c.PublicOrigin = "https://buddi.example.ts.net" }})
	token := r.agentIn(t, "c1")
	r.fake.Script("sendPhoto", telegramtest.Failing(400, "Bad Request: BUTTON_URL_INVALID"))
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	p := r.photo(t, 2) // the refused one, then the one without the button
	if len(buttons(t, p)) != 0 || !strings.Contains(p.Fields["caption"], "Take over: open https://buddi.example.ts.net/#/chat/ada/c1?tab=browser") {
		t.Fatalf("the photo sent again: buttons %v, caption %q", buttons(t, p), p.Fields["caption"])
	}
}

// A chat that does not answer holds back only its own photos: the agent's
// steps go on being answered, and once the chat answers again it gets the
// newest step, not the backlog.
func TestAStuckChatNeverHoldsTheAgentBack(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1")
	release := r.fake.Hold("sendPhoto")
	defer release()
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	r.fake.AwaitCount(t, "held:sendPhoto", 1) // the upload is stuck
	for i := 2; i <= 70; i++ {
		r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/" + itoa(i%40+1)})
	}
	release()
	if c := r.photo(t, 2).Fields["caption"]; !strings.HasPrefix(c, "Page 31 - ") || !strings.Contains(c, "Step 70 of 80") {
		t.Fatalf("after the chat answered again it got %q, want the newest step", c)
	}
}
