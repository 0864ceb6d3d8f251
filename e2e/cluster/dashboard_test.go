package cluster_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/messages"
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

// dashboard signs in to m's dashboard with a link from `buddi open` and
// opens its events socket.
func (m *member) dashboard(t *testing.T) *frames {
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
	var cookie string
	for _, c := range resp.Cookies() {
		if c.Name == "buddi_session" {
			cookie = c.Value
		}
	}
	if cookie == "" {
		t.Fatalf("signing in to %s's dashboard answered %d and no session", m.name, resp.StatusCode)
	}
	f := &frames{ch: make(chan messages.Frame, 256)}
	conn, _, err := gws.NewClient(f, &gws.ClientOption{Addr: "ws://" + m.addr + "/api/events",
		RequestHeader: http.Header{"Origin": {base}, "Cookie": {"buddi_session=" + cookie}}})
	if err != nil {
		t.Fatal(err)
	}
	go conn.ReadLoop()
	t.Cleanup(func() { _ = conn.NetConn().Close() })
	return f
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
