package daemon_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// moveAsAgent moves the agent's conversation from to to with browser.task.
func moveAsAgent(t *testing.T, d *daemontest.Daemon, token, from, to string) *daemontest.Reply {
	t.Helper()
	return d.Tool(t, token, "browser.task", from, map[string]any{"moveTo": to})
}

// moveAsOwner moves a conversation through the owner API.
func moveAsOwner(t *testing.T, d *daemontest.Daemon, from, to string) *daemontest.Reply {
	t.Helper()
	r, err := d.Do("POST", "/api/browser/move", d.Owner, map[string]any{"conversation": from, "to": to})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// status is browser.status of conv, which must have a session.
func status(t *testing.T, d *daemontest.Daemon, token, conv string) map[string]any {
	t.Helper()
	r := d.Tool(t, token, "browser.status", conv, map[string]any{})
	wantCode(t, r, "")
	return r.Map()
}

// wantMovedTo asserts r refuses a call on an old id, naming the new one.
func wantMovedTo(t *testing.T, r *daemontest.Reply, to string) {
	t.Helper()
	wantCode(t, r, string(messages.CodeMoved))
	if !strings.Contains(r.Error.Message, "conversation "+to) {
		t.Fatalf("the refusal %q does not name the new id %s", r.Error.Message, to)
	}
}

// pauseByStaleRefs pauses conv's session the way an agent would: three
// clicks on refs that are not on the page.
func pauseByStaleRefs(t *testing.T, d *daemontest.Daemon, token, conv string) {
	t.Helper()
	obs := d.Observe(t, token, conv)
	for i := 0; i < 3; i++ {
		r := act(t, d, token, conv, map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": "e99999"}})
		wantCode(t, r, "stale_ref")
		if i < 2 {
			obs = daemontest.Evidence(t, r)
		}
	}
	wantCode(t, act(t, d, token, conv, map[string]any{"action": "observe"}), "paused")
}

func TestAMoveKeepsTaskStepsExpiryAndTabs(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	obs := d.Observe(t, token, "c1")
	link := daemontest.Ref(t, obs, "link", "")
	before := status(t, d, token, "c1")

	r := moveAsAgent(t, d, token, "c1", "c2")
	wantCode(t, r, "")
	moved := r.Map()
	carried, _ := moved["carried"].([]any)
	if moved["to"] != "c2" || moved["task"] != "test task for c1" || len(carried) == 0 || len(carried) > messages.MaxCarried {
		t.Fatalf("the move answered %v, want c2, the task's text and 1 to %d carried lines", moved, messages.MaxCarried)
	}
	for _, l := range carried {
		if len(l.(string)) > messages.MaxCarriedLine {
			t.Fatalf("carried line %q is longer than %d", l, messages.MaxCarriedLine)
		}
	}

	after := status(t, d, token, "c2")
	for _, k := range []string{"task", "stepsLeft", "expires"} {
		if after[k] != before[k] {
			t.Fatalf("%s is %v after the move, want %v as before it", k, after[k], before[k])
		}
	}
	wantMovedTo(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "c2")
	wantMovedTo(t, d.Tool(t, token, "browser.status", "c1", map[string]any{}), "c2")
	wantMovedTo(t, d.Tool(t, token, "browser.task", "c1", map[string]any{"description": "again"}), "c2")

	// The observation from before the move is no good on the new id; the
	// refusal brings the page as it is, in the tab that stayed open.
	r = act(t, d, token, "c2", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}})
	wantCode(t, r, string(messages.CodeStaleObservation))
	if ev := daemontest.Evidence(t, r); ev["url"] != "https://sim.localhost/p/1" {
		t.Fatalf("after the move the tab shows %v, want the page it had open", ev["url"])
	}
	sessions := d.Must(t, "GET", "/api/browser/sessions", nil).Result
	if !strings.Contains(string(sessions), `"conversation":"c2"`) || strings.Contains(string(sessions), `"conversation":"c1"`) {
		t.Fatalf("the owner's sessions list %s, want c2 and not c1", sessions)
	}
}

func TestAMoveWhilePausedKeepsThePauseAndFencesTheOldID(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"}), "")
	pauseByStaleRefs(t, d, token, "c1")

	wantCode(t, moveAsOwner(t, d, "c1", "c2"), "")
	wantCode(t, act(t, d, token, "c2", map[string]any{"action": "observe"}), string(messages.CodePaused))
	wantMovedTo(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "c2")
	r, err := d.Do("POST", "/api/browser/resume", d.Owner, map[string]any{"conversation": "c1"})
	if err != nil {
		t.Fatal(err)
	}
	wantMovedTo(t, r, "c2")
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c2"})
	d.Observe(t, token, "c2")
}

func TestMoveRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		prepare func(t *testing.T, d *daemontest.Daemon, ada, bob string)
		move    func(t *testing.T, d *daemontest.Daemon, ada, bob string) *daemontest.Reply
		code    messages.Code
	}{
		"onto a conversation that has a session": {
			prepare: func(t *testing.T, d *daemontest.Daemon, _, _ string) { d.Task(t, "ada", "c3", 80) },
			move: func(t *testing.T, d *daemontest.Daemon, ada, _ string) *daemontest.Reply {
				return moveAsAgent(t, d, ada, "c1", "c3")
			},
			code: messages.CodeInUse,
		},
		"onto a conversation that has moved away": {
			prepare: func(t *testing.T, d *daemontest.Daemon, _, _ string) {
				d.Task(t, "ada", "c3", 80)
				wantCode(t, moveAsOwner(t, d, "c3", "c4"), "")
			},
			move: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
				return moveAsOwner(t, d, "c1", "c3")
			},
			code: messages.CodeInUse,
		},
		"someone else's conversation": {
			move: func(t *testing.T, d *daemontest.Daemon, _, bob string) *daemontest.Reply {
				return moveAsAgent(t, d, bob, "c1", "c2")
			},
			code: messages.CodeNotAllowed,
		},
		"while Stop holds": {
			prepare: func(t *testing.T, d *daemontest.Daemon, _, _ string) { d.Must(t, "POST", "/api/browser/stop", nil) },
			move: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
				return moveAsOwner(t, d, "c1", "c2")
			},
			code: messages.CodeStopped,
		},
		"taken over by the owner": {
			prepare: func(t *testing.T, d *daemontest.Daemon, _, _ string) {
				d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"})
			},
			move: func(t *testing.T, d *daemontest.Daemon, ada, _ string) *daemontest.Reply {
				return moveAsAgent(t, d, ada, "c1", "c2")
			},
			code: messages.CodeTakenOver,
		},
		"without a session": {
			move: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
				return moveAsOwner(t, d, "c9", "c2")
			},
			code: messages.CodeNoSession,
		},
		"onto the same id": {
			move: func(t *testing.T, d *daemontest.Daemon, _, _ string) *daemontest.Reply {
				return moveAsOwner(t, d, "c1", "c1")
			},
			code: messages.CodeBadInput,
		},
		"with a task request beside it": {
			move: func(t *testing.T, d *daemontest.Daemon, ada, _ string) *daemontest.Reply {
				return d.Tool(t, ada, "browser.task", "c1", map[string]any{"moveTo": "c2", "description": "more"})
			},
			code: messages.CodeBadInput,
		},
	} {
		t.Run(name, func(t *testing.T) {
			d, ada := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
			bob := d.AddAgent(t, "bob", false)
			wantCode(t, act(t, d, ada, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
			if tc.prepare != nil {
				tc.prepare(t, d, ada, bob)
			}
			r := tc.move(t, d, ada, bob)
			wantCode(t, r, string(tc.code))
			if strings.Count(r.Error.Message, ".") < 1 || strings.Contains(r.Error.Message, "\n") {
				t.Fatalf("the refusal %q is not one sentence", r.Error.Message)
			}
			// Nothing moved: the session still answers to c1 for the owner.
			if tc.code != messages.CodeNoSession {
				sessions := d.Must(t, "GET", "/api/browser/sessions", nil).Result
				if !strings.Contains(string(sessions), `"conversation":"c1"`) || strings.Contains(string(sessions), `"conversation":"c2"`) {
					t.Fatalf("after a refused move the sessions are %s, want c1 and no c2", sessions)
				}
			}
		})
	}
}

func TestAMovedSessionKeepsItsTaskAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	o := simOpts(sim.Config{}, nil)
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	before := status(t, d, token, "c1")
	wantCode(t, moveAsAgent(t, d, token, "c1", "c2"), "")
	d.Stop(t)

	d = daemontest.Start(t, dir, o)
	after := status(t, d, token, "c2")
	for _, k := range []string{"task", "stepsLeft", "expires"} {
		if after[k] != before[k] {
			t.Fatalf("%s is %v after the restart, want %v as before the move", k, after[k], before[k])
		}
	}
	wantMovedTo(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "c2")
	d.Observe(t, token, "c2")
}

// A site the owner allowed once for the conversation holds on its new id,
// across a restart, and not on the old one.
func TestASiteAllowedOnceFollowsTheMove(t *testing.T) {
	dir, o := t.TempDir(), askOpts(nil)
	d, token, nav := allowedOnce(t, dir, o)
	wantCode(t, moveAsAgent(t, d, token, "c1", "c2"), "")
	wantCode(t, d.Act(t, token, "c2", nav), "")
	d.Stop(t)
	d = daemontest.Start(t, dir, o)
	wantCode(t, d.Act(t, token, "c2", nav), "")
	wantMovedTo(t, d.Act(t, token, "c1", nav), "c2")
}

func TestAMoveTellsSubscribersOfTheOldIdWhereItWent(t *testing.T) {
	d, _ := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	sub := d.Events(t, events.Filter{Kinds: messages.KindMoved, Conversation: "c1"})
	wantCode(t, moveAsOwner(t, d, "c1", "c2"), "")
	ev := daemontest.Await(t, sub, "for the move of c1", func(ev messages.Event) bool {
		_, ok := ev.(*messages.ConversationMoved)
		return ok
	}).(*messages.ConversationMoved)
	if ev.From != "c1" || ev.To != "c2" || ev.Agent != "ada" || ev.At.IsZero() {
		t.Fatalf("the move was told as %+v, want from c1 to c2 for ada, with its time", ev)
	}
}
