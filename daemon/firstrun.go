package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// firstRun says, in one line, when no browser is installed for the agents
// yet, and downloads one only when asked (BUDDI_BROWSER_INSTALL=1): through
// the same install the owner API starts, so its progress is reported there.
func (d *Daemon) firstRun() {
	if _, ok := drivers.Current(d.mode).(drivers.Installer); !ok {
		return
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if d.mode.Status(c).Found {
		return
	}
	if !d.opts.Config.BrowserInstall {
		d.say("No browser installed for the agents yet: run `buddi browser install`, or start buddi with BUDDI_BROWSER_INSTALL=1 to download it now.")
		return
	}
	r := d.gateway.Owner(c, &messages.InstallBrowser{})
	if r.Error != nil {
		d.say("No browser installed for the agents yet, and the download did not start: " + r.Error.Message)
		return
	}
	d.say("No browser installed for the agents yet: downloading it now (BUDDI_BROWSER_INSTALL=1); GET /api/browser/install shows the progress.")
}

// say prints one line for the owner where serve's own lines go, and logs it.
func (d *Daemon) say(line string) {
	d.opts.Log.Info(line)
	if d.opts.Out != nil {
		fmt.Fprintln(d.opts.Out, line)
	}
}
