package daemon

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
)

// announce says where buddi serves, where the owner token is, and a
// one-time sign-in link.
func (w *wiring) announce() {
	out, d := w.o.Out, w.d
	if out == nil {
		return
	}
	path := w.o.Config.DataDir + "/" + instance.OwnerTokenFile
	scheme := w.o.Config.Scheme()
	if w.created {
		fmt.Fprintf(out, "buddi is serving at %s://%s. A new owner token was written to %s (owner-only); the CLI reads it from there.\n", scheme, d.addr, path)
	} else {
		fmt.Fprintf(out, "buddi is serving at %s://%s; the owner token is in %s.\n", scheme, d.addr, path)
	}
	served := w.o.Config
	served.Addr = d.addr
	fmt.Fprintf(out, "Exposed: %s.\n", strings.Join(served.Exposure(), "; "))
	if !w.o.Terminal {
		fmt.Fprintln(out, "To sign in to the dashboard, run `buddi open` on this computer: it prints a one-time link (not printed here, where logs may keep it).")
		return
	}
	link := d.http.SignInLink()
	fmt.Fprintf(out, "Sign in to the dashboard: %s\n(the link works once, for %d minutes; `buddi open` prints a new one)\n",
		link.URL, int(time.Until(link.Expires).Round(time.Minute).Minutes()))
}

// sayNotes says the lines gathered while starting.
func (w *wiring) sayNotes() {
	for _, n := range w.notes {
		w.say(n)
	}
}

// firstRun says, in one line, when no browser is installed for the agents
// yet, and downloads one only when asked (BUDDI_BROWSER_INSTALL=1): through
// the same install the owner API starts, so its progress is reported there.
func (w *wiring) firstRun() {
	if _, ok := drivers.Current(w.modes).(drivers.Installer); !ok {
		return
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if w.modes.Status(c).Found {
		return
	}
	if !w.o.Config.BrowserInstall {
		w.say("No browser installed for the agents yet: run `buddi browser install`, or start buddi with BUDDI_BROWSER_INSTALL=1 to download it now.")
		return
	}
	r := w.d.gateway.Owner(c, &messages.InstallBrowser{})
	if r.Error != nil {
		w.say("No browser installed for the agents yet, and the download did not start: " + r.Error.Message)
		return
	}
	w.say("No browser installed for the agents yet: downloading it now (BUDDI_BROWSER_INSTALL=1); GET /api/browser/install shows the progress.")
}

// say prints one line for the owner where serve's own lines go, and logs it.
func (w *wiring) say(line string) {
	w.o.Log.Info(line)
	if w.o.Out != nil {
		fmt.Fprintln(w.o.Out, line)
	}
}

// warm starts the agents' browser in the background as buddi starts
// (account, network namespace, Playwright's driver, Chromium), so that the
// first act finds it ready; /healthz and doctor say how far it got. With
// a profile per agent, each agent's browser starts on its first act.
func (w *wiring) warm() {
	if w.cfg.Profiles != config.ProfilesAgent {
		drivers.Warm(w.modes)
	}
}
