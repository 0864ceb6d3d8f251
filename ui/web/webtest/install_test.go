package webtest_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// installing is a mode whose browser install is a seam of ours: the real
// one downloads Chromium, which this machine cannot reach.
type installing struct {
	drivers.Mode
	install func(ctx context.Context, w io.Writer) error
}

func (m installing) Install(ctx context.Context, w io.Writer) error { return m.install(ctx, w) }

// The install says what it does and waits to be let go, so the page's
// progress can be seen while it runs.
func TestInstallChromiumShowsItsProgressAndItsEnd(t *testing.T) {
	proceed := make(chan error)
	o := start(t, daemon.Options{Mode: installing{Mode: sim.NewMode(sim.Config{}, 1), install: func(ctx context.Context, w io.Writer) error {
		fmt.Fprintln(w, "Downloading Chromium 42% of 150 MB")
		select {
		case err := <-proceed:
			fmt.Fprintln(w, "Chromium is unpacked.")
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}}})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/browser")
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Install Chromium"}))
	webtest.Visible(t, p.Locator(".install h3", pw.PageLocatorOptions{HasText: "Installing"}))
	webtest.Visible(t, p.Locator(".install .log", pw.PageLocatorOptions{HasText: "Downloading Chromium 42%"}))
	var st messages.InstallState
	if r, err := o.Do("POST", "/api/browser/install", o.Owner, nil); err != nil || !r.OK || r.Decode(&st) != nil || st.State != messages.InstallRunning {
		t.Fatalf("a second install while one runs starts none and says the first runs: %v %v %+v", r, err, st)
	}
	webtest.Screenshot(t, p, "desktop-settings-install")
	proceed <- &messages.Error{Code: messages.CodeNoBrowser, Message: "Playwright's Chromium download is unreachable from here: run `apt-get install chromium` instead."}
	webtest.Visible(t, p.Locator(".install h3", pw.PageLocatorOptions{HasText: "The install failed"}))
	webtest.Visible(t, p.Locator(".install .said.bad", pw.PageLocatorOptions{HasText: "apt-get install chromium"}))
	webtest.Visible(t, p.Locator(".install .log", pw.PageLocatorOptions{HasText: "Chromium is unpacked."}))
}
