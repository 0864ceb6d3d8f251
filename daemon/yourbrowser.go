package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/buddi-dev/buddi/actors/extconn"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
)

// extCaller sends the extension driver's commands through the extension
// connection actor.
type extCaller struct{ d *Daemon }

func (c extCaller) Call(ctx context.Context, method string, params any) (json.RawMessage, *messages.Error) {
	if c.d.ext == nil {
		return nil, messages.Errorf(messages.CodeBrowserOffline, "Your browser is not connected to buddi yet; buddi is still starting.")
	}
	return extconn.Call(ctx, c.d.sys.Root, c.d.ext, method, params)
}

// Online reads the connection actor's flag, without asking it.
func (c extCaller) Online() bool { return c.d.extOnline.Load() }

// Listen hears the extension's events through the connection actor.
func (c extCaller) Listen(fn func(extdriver.Event)) (func(), error) {
	if c.d.ext == nil {
		return nil, errors.New("the extension connection has not started")
	}
	return extconn.Subscribe(c.d.sys.Root, c.d.ext, func(ev *messages.ExtEvent) {
		fn(extdriver.Event{Name: ev.Name, Tab: int(ev.Tab), Data: ev.Data})
	})
}

// yourBrowserMode is Your browser: the owner's Chrome through the paired
// extension. It is offered on every install; while no extension is
// connected its status says so and its sessions fail with browser_offline.
// The owner's Chrome is not behind the egress guard, so every document an
// agent's tab lands on is checked against the same URL rules instead.
func (d *Daemon) yourBrowserMode() (*extdriver.Mode, error) {
	rules, err := json.Marshal(egress.CredentialRules())
	if err != nil {
		return nil, err
	}
	return extdriver.NewMode(extdriver.Config{
		Caller: extCaller{d},
		CheckURL: func(raw string) error {
			return d.egress.policy.rules().CheckURL(raw, d.yourBrowserSource())
		},
		OnRefused:  d.refusedByBrowser,
		CheckField: walker.CheckTyping,
		FieldRules: rules,
		Logger:     d.opts.Log,
	}), nil
}

// extensionFolder is the unpacked extension the dashboard and `buddi
// extension status` print for a developer install; "" when it is not found.
func (o Options) extensionFolder() string {
	if o.ExtensionDir != "" {
		return extension.Unpacked(o.ExtensionDir)
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return extension.Folder(exe)
}

// yourBrowserSource is whom a page in Your browser is checked for. The
// check sees no conversation, so while the owner has any session taken
// over, pages are the owner's (SourceOwner: a sign-in's redirects carry
// codes that look like keys); else an agent's. In Your browser the check
// runs on the page Chrome already reached, so this costs the scan for
// secrets in URLs nothing it could still have stopped.
func (d *Daemon) yourBrowserSource() egress.Source {
	for _, s := range d.routes.Sessions() {
		if s.State == messages.StateTakenOver {
			return egress.SourceOwner
		}
	}
	return egress.SourceRedirect
}
