package helper

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// focusPoll is how often open looks whether the app's window came forward.
// The platforms give no portable focus event to wait on.
const focusPoll = 50 * time.Millisecond

// open finds the app, brings it forward and waits for its window to take
// focus.
func open(ctx context.Context, p Platform, a *protocol.OpenArgs) (*protocol.Opened, error) {
	app, err := findApp(ctx, p, a)
	if err != nil {
		return nil, err
	}
	started, err := p.Activate(ctx, app)
	if err != nil {
		return nil, failed(err, protocol.CodeLaunchFailed, "%s could not be opened; open it yourself, or check that it still starts.", app.Name)
	}
	for {
		if w, err := p.Focused(ctx); err == nil {
			if info := describe(w); info.AppID == app.ID {
				return &protocol.Opened{App: app, Started: started, Window: info}, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, protocol.Errorf(protocol.CodeAppNotReady, "%s was opened but its window has not come forward yet; wait a few seconds and observe again.", app.Name)
		case <-time.After(focusPoll):
		}
	}
}

// find names the one installed app called a.Name, as open would pick it,
// and brings nothing forward: buddi asks the owner about that id before it
// opens anything.
func find(ctx context.Context, p Platform, a *protocol.FindArgs) (*protocol.App, error) {
	app, err := findApp(ctx, p, &protocol.OpenArgs{Name: a.Name})
	if err != nil {
		return nil, err
	}
	return &app, nil
}

// findApp picks exactly one installed app by id, or by exact name in any
// case within protocol.NameSearchTimeout, launching nothing.
func findApp(ctx context.Context, p Platform, a *protocol.OpenArgs) (protocol.App, error) {
	if a.ID != "" {
		app, ok, err := p.AppByID(ctx, a.ID)
		if err != nil {
			return protocol.App{}, failed(err, protocol.CodeAppNotFound, "The installed apps could not be listed to find %s; try again.", a.ID)
		}
		if !ok {
			return protocol.App{}, protocol.Errorf(protocol.CodeAppNotFound, "No app with the id %s is installed on this computer; check the id, or open the app by its name.", a.ID)
		}
		return app, nil
	}
	sctx, cancel := context.WithTimeout(ctx, protocol.NameSearchTimeout)
	defer cancel()
	apps, err := p.AppsNamed(sctx, a.Name)
	if errors.Is(err, context.DeadlineExceeded) || (err != nil && sctx.Err() != nil) {
		return protocol.App{}, protocol.Errorf(protocol.CodeAppSearchTimeout, "Looking for an app named %q took more than five seconds; open it by its id instead.", a.Name)
	}
	if err != nil {
		return protocol.App{}, failed(err, protocol.CodeAppNotFound, "The installed apps could not be searched for %q; open it by its id instead.", a.Name)
	}
	apps = exactlyNamed(apps, a.Name)
	switch len(apps) {
	case 0:
		return protocol.App{}, protocol.Errorf(protocol.CodeAppNotFound, "No installed app is named %q; check the name, or open the app by its id.", a.Name)
	case 1:
		return apps[0], nil
	}
	e := protocol.Errorf(protocol.CodeAppAmbiguous, "%d installed apps are named %q (%s); open the one you mean by its id.", len(apps), a.Name, listApps(apps))
	e.Candidates = apps[:min(len(apps), protocol.MaxCandidates)]
	return protocol.App{}, e
}

// exactlyNamed keeps the apps named name in any case, one per id, sorted.
func exactlyNamed(apps []protocol.App, name string) []protocol.App {
	var out []protocol.App
	seen := map[string]bool{}
	for _, app := range apps {
		if strings.EqualFold(app.Name, name) && protocol.ValidAppID(app.ID) && !seen[app.ID] {
			seen[app.ID] = true
			app.Name = protocol.Clean(app.Name, protocol.MaxNameRunes)
			out = append(out, app)
		}
	}
	slices.SortFunc(out, func(a, b protocol.App) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func listApps(apps []protocol.App) string {
	var ids []string
	for _, a := range apps[:min(len(apps), 5)] {
		ids = append(ids, a.ID)
	}
	s := strings.Join(ids, ", ")
	if len(apps) > 5 {
		s += fmt.Sprintf(" and %d more", len(apps)-5)
	}
	return s
}

// navigate opens a URL in an ordinary new tab of the selected browser app.
func navigate(ctx context.Context, p Platform, a *protocol.NavigateArgs) (*protocol.Navigated, error) {
	browser, ok, err := p.AppByID(ctx, a.Browser)
	if err != nil {
		return nil, failed(err, protocol.CodeAppNotFound, "The installed apps could not be listed to find the browser %s; try again.", a.Browser)
	}
	if !ok {
		return nil, protocol.Errorf(protocol.CodeAppNotFound, "The selected browser %s is not installed on this computer; the owner can pick another in Settings.", a.Browser)
	}
	if err := protocol.CheckURL(a.URL); err != nil {
		return nil, err
	}
	if err := p.OpenURL(ctx, browser, a.URL); err != nil {
		return nil, uncertain(err)
	}
	return &protocol.Navigated{Browser: browser, URL: a.URL}, nil
}
