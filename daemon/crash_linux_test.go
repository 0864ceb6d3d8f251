//go:build linux

package daemon_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// TestHelperKilledMidCallKeepsTheLock: the real helper is killed while it
// observes for c1. The call is answered with the helper's one sentence
// (not an empty observation, not a panic), c1 still holds the computer, so
// c2 is refused, and c1's next observation works.
func TestHelperKilledMidCallKeepsTheLock(t *testing.T) {
	d, _, _, desk := computerDesktop(t, []string{calcID})
	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 80)
	d.Task(t, "ada", "c2", 40)
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open: %s: %s", r.Code(), r.Error.Message)
	}
	var failed *daemontest.Reply
	for attempt := 0; attempt < 40 && failed == nil; attempt++ {
		done := make(chan *daemontest.Reply, 1)
		go func() {
			r, err := d.Do("POST", "/api/tools/browser.act", token, map[string]any{"conversation": "c1", "input": map[string]any{"action": "observe"}})
			if err != nil {
				r = nil
			}
			done <- r
		}()
		killed := false
		var r *daemontest.Reply
	wait:
		for {
			select {
			case r = <-done:
				break wait
			default:
			}
			if !killed {
				for _, pid := range desk.Running("buddi-computer-linux") {
					killed = syscall.Kill(pid, syscall.SIGKILL) == nil || killed
				}
			}
			time.Sleep(time.Millisecond) // a pause between scans of /proc, not a timing the test relies on
		}
		if r == nil {
			t.Fatal("the observe call got no answer")
		}
		switch {
		case !killed || r.OK:
		case r.Code() == messages.CodeNotAnswering && strings.Contains(r.Error.Message, "not on the accessibility bus"):
			// The kill landed between calls: the helper started for this
			// call found the app not back on the bus yet. Not mid-call.
		default:
			failed = r
		}
	}
	if failed == nil {
		t.Fatal("the helper was never caught mid-call in 40 observations")
	}
	msg := failed.Error.Message
	if failed.Code() != messages.CodeNotAnswering || !strings.Contains(msg, "The helper stopped without answering") ||
		strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") || strings.Count(msg, "\n") != 0 {
		t.Fatalf("the killed call was answered %s: %q; want not_answering with the helper's sentence", failed.Code(), msg)
	}
	wantRefused(t, d.Act(t, token, "c2", openCalc), messages.CodeNotAllowed, "Another conversation controls the computer")
	// The helper started again finds the app back on the accessibility bus
	// in its own time, and says so; observations that failed three times in
	// a row (the kills between calls) paused the session, which the owner
	// resumes. The agent observes again, as told.
	r := d.Act(t, token, "c1", map[string]any{"action": "observe"})
	for i := 0; i < 30 && !r.OK; i++ {
		switch {
		case r.Code() == messages.CodePaused,
			r.Code() == messages.CodeNotAnswering && strings.Contains(r.Error.Message, "is now paused"):
			// paused, or this failure was the third in a row and paused it
			d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
		case r.Code() == messages.CodeNotAnswering && strings.Contains(r.Error.Message, "not on the accessibility bus"):
			time.Sleep(time.Second) // the pause the sentence asks for, not a timing the test relies on
		default:
			t.Fatalf("c1's observe after the crash: %s: %s", r.Code(), r.Error.Message)
		}
		r = d.Act(t, token, "c1", map[string]any{"action": "observe"})
	}
	obs := d.Observe(t, token, "c1")
	if !strings.Contains(obs["text"].(string), "button") {
		t.Fatalf("c1's observation after the crash shows no buttons:\n%v", obs["text"])
	}
	t.Logf("the killed call was answered: %s", msg)
}
