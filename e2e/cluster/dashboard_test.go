package cluster_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// frames is a signed-in dashboard's events socket, as a program.
type frames struct {
	gws.BuiltinEventHandler
	ch chan messages.Frame
}

func (f *frames) OnMessage(_ *gws.Conn, m *gws.Message) {
	var fr messages.Frame
	if json.Unmarshal(m.Bytes(), &fr) == nil {
		f.ch <- fr
	}
	_ = m.Close()
}

var signInToken = regexp.MustCompile(`#/signin/([A-Za-z0-9_-]+)`)

// signIn signs in to m's dashboard with a link from `buddi open` and
// returns the session cookie.
func (m *member) signIn(t *testing.T) string {
	t.Helper()
	token := signInToken.FindStringSubmatch(m.cli(t, "open"))
	if token == nil {
		t.Fatal("buddi open printed no sign-in link")
	}
	base := "http://" + m.addr
	req, _ := http.NewRequest(http.MethodPost, base+"/api/session", bytes.NewReader([]byte(`{"token":"`+token[1]+`"}`)))
	req.Header.Set("Origin", base)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "buddi_session" {
			return c.Value
		}
	}
	t.Fatalf("signing in to %s's dashboard answered %d and no session", m.name, resp.StatusCode)
	return ""
}

// dashboard signs in to m's dashboard and opens its events socket.
func (m *member) dashboard(t *testing.T) *frames {
	t.Helper()
	f := &frames{ch: make(chan messages.Frame, 256)}
	m.socket(t, "/api/events", m.signIn(t), f)
	return f
}

// socket opens m's WebSocket at path as the dashboard signed in with
// cookie would, its messages going to h.
func (m *member) socket(t *testing.T, path, cookie string, h gws.Event) *gws.Conn {
	t.Helper()
	base := "http://" + m.addr
	conn, _, err := gws.NewClient(h, &gws.ClientOption{Addr: "ws://" + m.addr + path,
		RequestHeader: http.Header{"Origin": {base}, "Cookie": {"buddi_session=" + cookie}}})
	if err != nil {
		t.Fatal(err)
	}
	go conn.ReadLoop()
	t.Cleanup(func() { _ = conn.NetConn().Close() })
	return conn
}

// notes is a hand socket's text messages, as a program.
type notes struct {
	gws.BuiltinEventHandler
	ch chan messages.HandNote
}

func (n *notes) OnMessage(_ *gws.Conn, m *gws.Message) {
	var note messages.HandNote
	if m.Opcode == gws.OpcodeText && json.Unmarshal(m.Bytes(), &note) == nil {
		n.ch <- note
	}
	_ = m.Close()
}

// hand opens m's hand socket for conv as a signed-in dashboard and returns
// the first note it sends: attached, or its end.
func (m *member) hand(t *testing.T, conv string) messages.HandNote {
	t.Helper()
	cookie := m.signIn(t)
	n := &notes{ch: make(chan messages.HandNote, 16)}
	conn := m.socket(t, "/api/browser/hand?conversation="+conv, cookie, n)
	first, _ := json.Marshal(map[string]string{"t": string(messages.HandCSRF), "token": secret.Hash("csrf:" + cookie)[:32]})
	if err := conn.WriteMessage(gws.OpcodeText, first); err != nil {
		t.Fatal(err)
	}
	select {
	case note := <-n.ch:
		return note
	case <-time.After(patience):
		t.Fatalf("%s's hand socket for %s said nothing", m.name, conv)
	}
	return messages.HandNote{}
}

// until returns the first frame that satisfies ok.
func (f *frames) until(t *testing.T, what string, ok func(messages.Frame) bool) messages.Frame {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case fr := <-f.ch:
			if ok(fr) {
				return fr
			}
		case <-deadline:
			t.Fatalf("the dashboard never showed %s", what)
		}
	}
}

// A dashboard signed in to one member shows, as they change, the sessions
// and tasks that live on the others.
func TestADashboardShowsTheSessionsOfEveryMember(t *testing.T) {
	etcd, a, b, c := three(t)
	board := c.dashboard(t)
	board.until(t, "its hello", func(f messages.Frame) bool { return f.Type == messages.FrameHello })
	var conv string
	for i := 0; conv == ""; i++ {
		name := fmt.Sprintf("far-%d", i)
		a.Task(t, "ada", name, 10)
		if homeOf(t, etcd, name, a, b, c) != c {
			conv = name
		}
	}
	board.until(t, "the far task", func(f messages.Frame) bool {
		return f.Type == messages.FrameTask && f.Task != nil && f.Task.Conversation == conv
	})
	b.Observe(t, b.agent, conv)
	board.until(t, "the far session's first step", func(f messages.Frame) bool {
		return f.Type == messages.FrameSession && f.Session != nil && f.Session.Conversation == conv && f.Session.StepsUsed == 1
	})
	a.Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
	board.until(t, "the far session's end", func(f messages.Frame) bool {
		return f.Type == messages.FrameSession && f.Session != nil && f.Session.Conversation == conv && f.Ended
	})
}

// A take-over through any member holds; its live view opens on the
// member that runs the session, and another member's dashboard says
// where that is instead of saying there is no session.
func TestATakeOversLiveViewSaysWhichMemberRunsIt(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "h1", 10)
	b.Observe(t, b.agent, "h1")
	home := homeOf(t, etcd, "h1", a, b, c)
	other := others(home, a, b, c)[0]
	other.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "h1"})
	note := other.hand(t, "h1")
	if note.Type != messages.HandNoteEnd || note.Error == nil || !strings.Contains(note.Error.Message, home.addr) {
		t.Fatalf("%s's hand socket for h1, which runs on %s, said %+v; want its end naming %s", other.name, home.name, note, home.addr)
	}
	if note := home.hand(t, "h1"); note.Type != messages.HandNoteAttached {
		t.Fatalf("%s's own hand socket for h1 said %+v; want it attached", home.name, note)
	}
}
