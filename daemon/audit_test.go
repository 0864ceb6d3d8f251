package daemon_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
)

// trailOf reads every line of the audit trail under dir.
func trailOf(t testing.TB, dir string) messages.AuditList {
	t.Helper()
	list, err := audit.Read(dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// rawTrail is every byte of the trail's files under dir.
func rawTrail(t testing.TB, dir string) []byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, audit.Dir, audit.File+"*"))
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// Every act an agent makes over the API leaves one line with its agent,
// conversation, action, target, outcome code and page, once the daemon has
// stopped cleanly; a fill's value and a URL's one-time code never do.
func TestEveryActLeavesOneAuditLine(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	const typed, code = "Hunter2TypedValue", "Zq7Kp9Otp"
	acts := 0
	do := func(in map[string]any) *daemontest.Reply {
		acts++
		return d.Act(t, token, "c1", in)
	}
	wantCode(t, do(map[string]any{"action": "navigate", "url": sim.Origin + "/form/1?otp=" + code}), "")
	acts++
	obs := d.Observe(t, token, "c1")
	box := daemontest.Ref(t, obs, "textbox", "")
	wantCode(t, do(map[string]any{"action": "fill", "observation": daemontest.ID(obs), "target": map[string]any{"ref": box}, "value": typed}), "")
	wantCode(t, do(map[string]any{"action": "click", "observation": "o-old", "target": map[string]any{"ref": box}}), "stale_observation")
	acts++
	wantCode(t, d.Tool(t, token, "browser.status", "c1", map[string]any{}), "")
	acts++
	wantCode(t, d.Tool(t, "not-a-token", "browser.status", "c1", map[string]any{}), "unauthorized")
	d.Stop(t)

	raw := rawTrail(t, d.Dir)
	for _, s := range []string{typed, code} {
		if bytes.Contains(raw, []byte(s)) {
			t.Fatalf("the trail holds %q:\n%s", s, raw)
		}
	}
	var lines messages.AuditList
	for _, r := range trailOf(t, d.Dir) {
		if r.Kind == messages.AuditAct {
			lines = append(lines, r)
		}
	}
	if len(lines) != acts {
		t.Fatalf("the trail has %d act lines, want one per act (%d):\n%s", len(lines), acts, raw)
	}
	want := []struct {
		agent, action, target string
		code                  messages.Code
		url                   string
	}{
		{"ada", "navigate", "", messages.AuditOK, sim.Origin + "/form/1"},
		{"ada", "observe", "", messages.AuditOK, sim.Origin + "/form/1"},
		{"ada", "fill", box, messages.AuditOK, sim.Origin + "/form/1"},
		{"ada", "click", box, "stale_observation", ""},
		{"ada", "status", "", messages.AuditOK, ""},
		{"", "status", "", messages.CodeUnauthorized, ""},
	}
	for i, w := range want {
		r := lines[i]
		if r.Agent != w.agent || r.Conversation != "c1" || r.Action != w.action || r.Target != w.target || r.Code != w.code || r.URL != w.url || r.At.IsZero() {
			t.Errorf("act line %d is %+v, want %+v in c1 with a time", i, r, w)
		}
	}
	st, err := os.Stat(filepath.Join(d.Dir, audit.Dir, audit.File))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("the trail's mode is %v, want 0600", st.Mode().Perm())
	}
}

// ownerControl is one owner control made through the API, and what its
// line must say.
type ownerControl struct {
	session bool // the conversation has a running session first
	do      func(t *testing.T, d *daemontest.Daemon, token, conv string) *daemontest.Reply
	scoped  bool // the line names the conversation (and its agent)
}

func post(path string, body any) func(*testing.T, *daemontest.Daemon, string, string) *daemontest.Reply {
	return func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		return call(t, d, "POST", path, body)
	}
}

func call(t *testing.T, d *daemontest.Daemon, method, path string, body any) *daemontest.Reply {
	t.Helper()
	r, err := d.Do(method, path, d.Owner, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// ownerControls is every owner control, by the action its line names.
var ownerControls = map[string]ownerControl{
	"move": {session: true, scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		return call(t, d, "POST", "/api/browser/move", messages.MoveSession{Conversation: conv, To: conv + "-b"})
	}},
	"take_over": {session: true, scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		return call(t, d, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: conv})
	}},
	"give_back": {session: true, scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		d.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: conv})
		return call(t, d, "POST", "/api/browser/resume", messages.OwnerBody{Conversation: conv})
	}},
	"release": {session: true, scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		return call(t, d, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
	}},
	"stop": {do: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		r := call(t, d, "POST", "/api/browser/stop", nil)
		d.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
		return r
	}},
	"resume_all": {do: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		d.Must(t, "POST", "/api/browser/stop", nil)
		return call(t, d, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
	}},
	"start_task": {scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		return call(t, d, "POST", "/api/tasks", messages.OwnerBody{Agent: "ada", Conversation: conv, Description: "audit", Steps: 10, Minutes: 5})
	}},
	"accept_task": {scoped: true, do: func(t *testing.T, d *daemontest.Daemon, token, conv string) *daemontest.Reply {
		wantCode(t, d.Tool(t, token, "browser.task", conv, map[string]any{"description": "let me"}), "")
		return call(t, d, "POST", "/api/tasks/decide", messages.OwnerBody{Conversation: conv, Accept: true})
	}},
	"refuse_task": {scoped: true, do: func(t *testing.T, d *daemontest.Daemon, token, conv string) *daemontest.Reply {
		wantCode(t, d.Tool(t, token, "browser.task", conv, map[string]any{"description": "let me"}), "")
		return call(t, d, "POST", "/api/tasks/decide", messages.OwnerBody{Conversation: conv})
	}},
	"answer_site": {session: true, scoped: true, do: func(t *testing.T, d *daemontest.Daemon, _, conv string) *daemontest.Reply {
		return call(t, d, "POST", "/api/approvals", messages.OwnerBody{Conversation: conv, Site: "example.com", Decision: "always"})
	}},
	"revoke_site":     {do: post("/api/browser/sites/revoke", messages.OwnerBody{Site: "example.com"})},
	"sign_out_site":   {do: post("/api/browser/logins/signout", messages.OwnerBody{All: true})},
	"change_settings": {do: post("/api/settings/browser", map[string]any{"siteApproval": "ask"})},
	"add_agent":       {do: post("/api/agents", messages.OwnerBody{Name: "bob"})},
	"remove_agent": {do: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		d.AddAgent(t, "carl", false)
		return call(t, d, "DELETE", "/api/agents/carl", nil)
	}},
	"sign_in":  {do: signIn},
	"sign_out": {do: signOutDevice},
	"unpair_telegram": {do: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		return call(t, d, "DELETE", "/api/telegram/pair", nil)
	}},
	"forget_extension": {do: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
		return call(t, d, "POST", "/api/extension/forget", nil)
	}},
}

// signIn spends a one-time link as the dashboard's page does, and
// returns the device it signed in.
func signIn(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
	t.Helper()
	var link messages.SignInLink
	if err := d.Must(t, "POST", "/api/signin-links", nil).Decode(&link); err != nil {
		t.Fatal(err)
	}
	return spendLink(t, d, link.URL[strings.LastIndexByte(link.URL, '/')+1:])
}

// spendLink posts a sign-in link's token as the dashboard's page does.
func spendLink(t *testing.T, d *daemontest.Daemon, tok string) *daemontest.Reply {
	t.Helper()
	req, err := http.NewRequest("POST", "http://"+d.Addr()+"/api/session", strings.NewReader(`{"token":"`+tok+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://"+d.Addr())
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var r daemontest.Reply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func signOutDevice(t *testing.T, d *daemontest.Daemon, token, conv string) *daemontest.Reply {
	t.Helper()
	me := signIn(t, d, token, conv)
	if !me.OK {
		t.Fatalf("sign-in: %s", me.Code())
	}
	dev, _ := me.Map()["device"].(map[string]any)
	return call(t, d, "POST", "/api/devices/signout", messages.OwnerBody{ID: fmt.Sprint(dev["id"])})
}

// Each owner control leaves its line, with the code its answer carried.
func TestEveryOwnerControlLeavesItsAuditLine(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c0", 80)
	codes := map[string]messages.Code{}
	for name, c := range ownerControls {
		conv := "conv-" + name
		if c.session {
			d.Task(t, "ada", conv, 80)
			d.Observe(t, token, conv)
		}
		r := c.do(t, d, token, conv)
		codes[name] = r.Code()
		if codes[name] == "" {
			codes[name] = messages.AuditOK
		}
	}
	d.Stop(t)
	lines := trailOf(t, d.Dir)
	for name, c := range ownerControls {
		t.Run(name, func(t *testing.T) {
			for _, r := range lines {
				if r.Kind != messages.AuditControl || r.Action != name || (c.scoped && r.Conversation != "conv-"+name) {
					continue
				}
				if r.Code != codes[name] {
					continue // an earlier control of the same kind, set up by another case
				}
				if c.scoped && r.Agent != "ada" {
					t.Fatalf("the line %+v names agent %q, want ada", r, r.Agent)
				}
				return
			}
			t.Fatalf("no %s line with code %s in the trail:\n%s", name, codes[name], rawTrail(t, d.Dir))
		})
	}
}
