package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// The running browser's row says where its start is: a failed start is an
// error with its sentence, the rest say how far it got.
func TestRunningRowSaysWhereTheBrowserIsInItsStart(t *testing.T) {
	since := time.Now().Add(-3 * time.Second)
	for name, c := range map[string]struct {
		launch      messages.BrowserLaunch
		level, text string
	}{
		"idle":     {messages.BrowserLaunch{State: messages.LaunchIdle, Since: since}, OK, "starts on the first act"},
		"starting": {messages.BrowserLaunch{State: messages.LaunchStarting, Since: since, Load: 3}, OK, "starting, for 3s so far on a machine busy"},
		"ready":    {messages.BrowserLaunch{State: messages.LaunchReady, Since: since, TookMs: 8200, Restarts: 1}, OK, "it took 8.2 s to start); started again 1 time"},
		"failed":   {messages.BrowserLaunch{State: messages.LaunchFailed, Since: since, Problem: "The browser found no usable sandbox."}, Error, "no usable sandbox"},
	} {
		r := runningRow(c.launch)
		if r.Name != "browser now" || r.Level != c.level || !strings.Contains(r.Text, c.text) {
			t.Errorf("%s: %+v, want %s with %q", name, r, c.level, c.text)
		}
	}
}
