package daemon_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// The owner stops and resumes from the dashboard and from Telegram at once,
// over and over, while the ledger is stalled: when every request is
// answered, the last decision holds everywhere — what /healthz says, what
// an agent's act meets, the last StopChanged the dashboard got, and the
// ledger (read back after a restart).
func TestAStopAndAResumeRacingFromTwoSurfacesEndInTheLastOnesState(t *testing.T) {
	dir := t.TempDir()
	fake := telegramtest.Start(t, 2*time.Second)
	o := simOpts(sim.Config{}, nil)
	o.Config.TelegramToken, o.Config.TelegramAPI = telegramtest.Token, fake.URL
	o.Telegram = telegram.Tuning{Poll: 2 * time.Second, Pace: 20 * time.Millisecond}
	d := daemontest.Start(t, dir, o)
	d.PairTelegram(t, fake)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	stops := d.Events(t, events.Filter{Kinds: messages.KindStop})

	const rounds = 6
	replied := len(fake.Calls("sendMessage"))
	_, release := stallLedger(t, d)
	var wg sync.WaitGroup
	for i := range rounds {
		dashboard, chat := "/api/browser/stop", "/browser resume"
		if i%2 == 1 {
			dashboard, chat = "/api/browser/resume", "/browser stop"
		}
		wg.Go(func() {
			var body any
			if strings.HasSuffix(dashboard, "resume") {
				body = map[string]any{"all": true}
			}
			if _, err := d.Do("POST", dashboard, d.Owner, body); err != nil {
				t.Errorf("%s: %v", dashboard, err)
			}
		})
		fake.Push(telegramtest.Text(telegramtest.User{ID: 4242, Name: "Ada"}, chat))
	}
	time.Sleep(100 * time.Millisecond)
	release()
	wg.Wait()
	fake.AwaitCount(t, "sendMessage", replied+rounds)

	stopped := lastStop(t, stops)
	act := d.Act(t, token, "c1", map[string]any{"action": "observe"})
	if h := health(t, d); h.Stopped != stopped || (act.Code() == messages.CodeStopped) != stopped {
		t.Fatalf("the last StopChanged says stopped=%v; /healthz says %v, an act was answered %q", stopped, h.Stopped, act.Code())
	}
	d.Stop(t)
	d = daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	if h := health(t, d); h.Stopped != stopped {
		t.Fatalf("after a restart the ledger's Stop is %v; the last decision was %v", h.Stopped, stopped)
	}
}

// lastStop is the last StopChanged published once the decision in force is
// saved and nothing more comes for a while.
func lastStop(t *testing.T, sub *events.Subscription) bool {
	t.Helper()
	var last *messages.StopChanged
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		ev, err := sub.Next(ctx)
		cancel()
		if err != nil {
			if last == nil || !last.Saved {
				t.Fatalf("the last StopChanged is %+v; want one saved", last)
			}
			return last.Stopped
		}
		last = ev.(*messages.StopChanged)
	}
}
