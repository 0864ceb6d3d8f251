package webtest_test

import (
	"os"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	webtest.Stop()
	os.Exit(code)
}

func TestSmoke(t *testing.T) {
	o := webtest.Start(t, daemon.Options{})
	p := o.Page(t, 1280, 800)
	msgs := []string{}
	p.OnConsole(func(m pw.ConsoleMessage) { msgs = append(msgs, m.Text()) })
	o.SignIn(t, p)
	tok := o.AddAgent(t, "ada", false)
	o.Task(t, "ada", "c1", 80)
	r := o.Act(t, tok, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/"})
	t.Log(r.OK, r.Error)
	o.Observe(t, tok, "c1")
	t.Log(webtest.Screenshot(t, p, "smoke"))
	t.Log(msgs)
	webtest.Visible(t, p.Locator("[data-steps='2']"))
	t.Log(webtest.Screenshot(t, p, "smoke"))
	t.Log(msgs)
}
