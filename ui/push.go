package ui

import (
	"encoding/json"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// write pushes frames to one socket until it closes: a hello with the whole
// state, then one frame per event, and a fresh hello whenever the queue
// had to drop events. Every ping period it pings the page and checks the
// device is still signed in.
func (ss *sockets) write(sock *socket) {
	sub := ss.s.cfg.Actors.Subscribe(events.Filter{Kinds: messages.KindAll, Size: socketQueue})
	defer sub.Close()
	if !sock.send(ss.s.hello()) {
		return
	}
	tick := time.NewTicker(pingEvery)
	defer tick.Stop()
	var dropped uint64
	for ok := true; ok; {
		select {
		case <-sock.done:
			return
		case <-sub.Ready():
			ok = ss.push(sock, sub, &dropped)
		case <-tick.C:
			ok = ss.lease(sock)
		}
	}
}

// push sends the events waiting, or a fresh hello when some were dropped;
// false when the socket is gone.
func (ss *sockets) push(sock *socket, sub *events.Subscription, dropped *uint64) bool {
	evs := sub.Drain()
	if d := sub.Dropped(); d != *dropped {
		*dropped = d
		return sock.send(ss.s.hello())
	}
	for _, ev := range evs {
		if f := frameOf(ev); f != nil && !sock.send(f) {
			return false
		}
	}
	return true
}

// lease pings the page and checks its device is still signed in.
func (ss *sockets) lease(sock *socket) bool {
	if _, e := ss.s.device(sock.cookie); e != nil {
		sock.close(closeSignout, e.Message)
		return false
	}
	_ = sock.conn.SetWriteDeadline(time.Now().Add(writeWait))
	if err := sock.conn.WritePing(nil); err != nil {
		sock.stop()
		return false
	}
	return true
}

// send writes one frame; false when the socket is gone.
func (sock *socket) send(f *messages.Frame) bool {
	b, err := json.Marshal(f)
	if err != nil {
		return true // a frame that cannot be encoded is skipped, not fatal
	}
	_ = sock.conn.SetWriteDeadline(time.Now().Add(writeWait))
	if err := sock.conn.WriteMessage(gws.OpcodeText, b); err != nil {
		sock.stop()
		return false
	}
	return true
}

// frameOf is the frame of an event, or nil for one the page does not show.
func frameOf(ev messages.Event) *messages.Frame {
	switch e := ev.(type) {
	case *messages.SessionChanged:
		s := e.Session
		return &messages.Frame{Type: messages.FrameSession, Session: &s, Ended: e.Ended, At: e.At}
	case *messages.TaskChanged:
		t := e.Task
		return &messages.Frame{Type: messages.FrameTask, Task: &t, At: e.At}
	case *messages.ApprovalRequested:
		r := e.Request
		return &messages.Frame{Type: messages.FrameApproval, Approval: &r, Decision: e.Decision}
	case *messages.StepTaken:
		st := messages.StepEntry(e)
		return &messages.Frame{Type: messages.FrameStep, Step: &st}
	case *messages.StopChanged:
		return &messages.Frame{Type: messages.FrameStop, Stop: &messages.StopView{Stopped: e.Stopped,
			Settled: e.Settled, Saved: e.Saved, Sessions: e.Sessions}}
	case *messages.InstallChanged:
		return &messages.Frame{Type: messages.FrameInstall, Install: installFrame(e.State)}
	case *messages.SnapshotTaken:
		s := e.Snapshot
		return &messages.Frame{Type: messages.FrameSnapshot, Snapshot: &s}
	case *messages.ConversationMoved:
		return &messages.Frame{Type: messages.FrameMoved, Moved: &messages.MovedView{From: e.From, To: e.To, Agent: e.Agent}, At: e.At}
	}
	return nil
}

// hello is the whole state a dashboard shows. A list the actors could not
// give in time is sent empty; the next hello brings it.
func (s *Server) hello() *messages.Frame {
	h := &messages.Hello{Sessions: messages.SessionList{}, Tasks: messages.TaskList{},
		Approvals: messages.SiteRequests{}, Version: s.cfg.Version}
	c, cancel := deadline(ownerDeadline)
	defer cancel()
	if health, e := s.cfg.Actors.Health(c); e == nil {
		h.Mode, h.Stop.Stopped, h.Stop.Settled, h.Stop.Saved = health.Mode, health.Stopped, true, true
	}
	if r := s.tell(&messages.ListSessions{}); r.Error == nil {
		h.Sessions, _ = r.Result.(messages.SessionList)
	}
	if r := s.tell(&messages.ListTasks{}); r.Error == nil {
		h.Tasks, _ = r.Result.(messages.TaskList)
	}
	if r := s.tell(&messages.GetInstall{}); r.Error == nil {
		if st, ok := r.Result.(*messages.InstallState); ok {
			h.Install = installFrame(*st)
		}
	}
	if r := s.tell(&messages.ListSiteRequests{}); r.Error == nil {
		h.Approvals, _ = r.Result.(messages.SiteRequests)
	}
	return &messages.Frame{Type: messages.FrameHello, Hello: h}
}

// installFrame is the dashboard's view of the browser install: nil before
// any install, else its lines and how it ended.
func installFrame(st messages.InstallState) *messages.Install {
	if st.State == messages.InstallIdle || st.State == "" {
		return nil
	}
	in := &messages.Install{Running: st.State == messages.InstallRunning, Lines: st.Lines,
		Done: st.State == messages.InstallDone || st.State == messages.InstallFailed, Started: st.Started}
	if in.Lines == nil {
		in.Lines = []string{}
	}
	if st.State == messages.InstallFailed {
		in.Error = &messages.Error{Code: messages.CodeNoBrowser, Message: st.Problem}
	}
	return in
}
