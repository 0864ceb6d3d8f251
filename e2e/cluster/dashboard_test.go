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
	"github.com/buddi-dev/buddi/messages/handwire"
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
func (m *member) signIn(t testing.TB) string {
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
func (m *member) socket(t testing.TB, path, cookie string, h gws.Event) *gws.Conn {
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

// handTab is a dashboard tab's hand socket, as a program: its notes and
// frames.
type handTab struct {
	gws.BuiltinEventHandler
	conn   *gws.Conn
	notes  chan messages.HandNote
	frames chan []byte
}

func (h *handTab) OnMessage(_ *gws.Conn, m *gws.Message) {
	defer m.Close()
	if m.Opcode == gws.OpcodeBinary {
		select {
		case h.frames <- append([]byte(nil), m.Bytes()...):
		default: // the test reads only the first few
		}
		return
	}
	var note messages.HandNote
	if json.Unmarshal(m.Bytes(), &note) == nil {
		h.notes <- note
	}
}

// send writes one input, as the dashboard's JSON.
func (h *handTab) send(t testing.TB, in map[string]any) {
	t.Helper()
	b, _ := json.Marshal(in)
	if err := h.conn.WriteMessage(gws.OpcodeText, b); err != nil {
		t.Fatal(err)
	}
}

// note is the tab's next note.
func (h *handTab) note(t testing.TB) messages.HandNote {
	t.Helper()
	select {
	case n := <-h.notes:
		return n
	case <-time.After(patience):
		t.Fatal("the hand socket said nothing")
	}
	return messages.HandNote{}
}

// hand opens m's hand socket for conv as a signed-in dashboard tab and
// sends its first message, the CSRF token.
func (m *member) hand(t testing.TB, conv string) *handTab {
	t.Helper()
	cookie := m.signIn(t)
	h := &handTab{notes: make(chan messages.HandNote, 16), frames: make(chan []byte, 16)}
	h.conn = m.socket(t, "/api/browser/hand?conversation="+conv, cookie, h)
	h.send(t, map[string]any{"t": string(handwire.CSRF), "token": secret.Hash("csrf:" + cookie)[:32]})
	return h
}

// within reads frames for at most d, until one satisfies ok, and says
// whether one did.
func (f *frames) within(d time.Duration, ok func(messages.Frame) bool) bool {
	deadline := time.After(d)
	for {
		select {
		case fr := <-f.ch:
			if ok(fr) {
				return true
			}
		case <-deadline:
			return false
		}
	}
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
// and tasks that live on the others, and their snapshots.
func TestADashboardShowsTheSessionsOfEveryMember(t *testing.T) {
	etcd, a, b, c := three(t)
	board := c.dashboard(t)
	board.until(t, "its hello", func(f messages.Frame) bool { return f.Type == messages.FrameHello })
	var conv string
	for i := 0; conv == ""; i++ {
		name := fmt.Sprintf("far-%d", i)
		a.Task(t, "ada", name, 80)
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
	// Its steps and snapshots come too, once c has said it watches (at
	// most a few seconds after the dashboard opened); until then they are
	// not told.
	var step, snap bool
	for deadline := time.Now().Add(patience); !step || !snap; {
		if time.Now().After(deadline) {
			t.Fatalf("c's dashboard showed the far session's step %v and snapshot %v", step, snap)
		}
		b.Observe(t, b.agent, conv)
		board.within(time.Second, func(f messages.Frame) bool {
			step = step || f.Type == messages.FrameStep && f.Step != nil && f.Step.Conversation == conv
			snap = snap || f.Type == messages.FrameSnapshot && f.Snapshot != nil && f.Snapshot.Conversation == conv && len(f.Snapshot.JPEG) > 0
			return step && snap
		})
	}
	a.Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
	board.until(t, "the far session's end", func(f messages.Frame) bool {
		return f.Type == messages.FrameSession && f.Session != nil && f.Session.Conversation == conv && f.Ended
	})
}

// The owner takes over a session on one member through another member's
// dashboard and drives it there: the tab attaches, the session's frames
// reach it, its acks and its "give back" reach the session.
func TestATakeOverIsDrivenThroughAMemberThatDoesNotRunIt(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "h1", 10)
	b.Observe(t, b.agent, "h1")
	home := homeOf(t, etcd, "h1", a, b, c)
	other := others(home, a, b, c)[0]
	other.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "h1"})
	tab := other.hand(t, "h1")
	if n := tab.note(t); n.Type != messages.HandNoteAttached || n.ID == "" {
		t.Fatalf("%s's hand socket for h1, which runs on %s, said %+v; want it attached", other.name, home.name, n)
	}
	var seqs []uint32
	for len(seqs) < 3 {
		select {
		case f := <-tab.frames:
			fr, _, err := handwire.DecodeFrame(f)
			if err != nil {
				t.Fatalf("a frame from %s through %s does not decode: %v", home.name, other.name, err)
			}
			seqs = append(seqs, fr.Seq)
			tab.send(t, map[string]any{"t": string(handwire.Ack), "seq": fr.Seq})
		case n := <-tab.notes:
			t.Fatalf("the hand ended before three frames came: %+v", n)
		case <-time.After(patience):
			t.Fatalf("%d frames of h1 reached %s's tab; the acks let three through", len(seqs), other.name)
		}
	}
	if r := home.Act(t, home.agent, "h1", map[string]any{"action": "observe"}); r.Code() != messages.CodeTakenOver {
		t.Fatalf("while the owner drives h1 the agent's act answered %q", r.Code())
	}
	tab.send(t, map[string]any{"t": string(handwire.Give)})
	for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
		r := home.Act(t, home.agent, "h1", map[string]any{"action": "observe"})
		if r.OK {
			break
		}
		if r.Code() != messages.CodeTakenOver || time.Now().After(deadline) {
			t.Fatalf("after the tab on %s gave h1 back, the agent's act answered %q", other.name, r.Code())
		}
	}
}
