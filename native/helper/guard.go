package helper

import (
	"context"

	"github.com/buddi-dev/buddi/native/protocol"
)

// focused returns the focused window, which must belong to app, and its
// description with the fingerprint filled in.
func focused(ctx context.Context, p Platform, app string) (Window, protocol.Window, error) {
	w, err := p.Focused(ctx)
	if err != nil {
		return nil, protocol.Window{}, failed(err, protocol.CodeNoFocusedWindow,
			"No window has keyboard focus; open the app, or take over and click into its window.")
	}
	info := describe(w)
	if info.AppID != app {
		e := protocol.Errorf(protocol.CodeWrongApp, "The focused window is %s, not one of %s; open %s first, or take over and put focus back in it.",
			windowName(info), app, app)
		e.Window = &info
		return nil, info, e
	}
	return w, info, nil
}

// guarded returns the focused window after checking it is the one g was
// observed in.
func guarded(ctx context.Context, p Platform, g protocol.Guard) (Window, protocol.Window, error) {
	w, err := p.Focused(ctx)
	if err != nil {
		return nil, protocol.Window{}, failed(err, protocol.CodeNoFocusedWindow,
			"No window has keyboard focus any more, so nothing was sent; take over, click into the app you meant, resume and observe again.")
	}
	info := describe(w)
	if info.Fingerprint != g.Window || info.AppID != g.App {
		return nil, info, focusChanged(info)
	}
	return w, info, nil
}

// stillFocused checks that focus has not moved away from the window info.
func stillFocused(ctx context.Context, p Platform, info protocol.Window) error {
	_, _, err := guarded(ctx, p, protocol.Guard{App: info.AppID, Window: info.Fingerprint})
	return err
}

func focusChanged(now protocol.Window) error {
	e := protocol.Errorf(protocol.CodeFocusChanged, "Focus moved to %s since the observation, so nothing was sent; take over, put focus back in the app you meant, resume and observe again.",
		windowName(now))
	e.Window = &now
	return e
}

func describe(w Window) protocol.Window {
	info := w.Info()
	info.Title = protocol.Clean(info.Title, protocol.MaxNameRunes)
	info.AppName = protocol.Clean(info.AppName, protocol.MaxNameRunes)
	info.Fingerprint = WindowFingerprint(info.ID, info.PID, info.AppID)
	return info
}

func windowName(w protocol.Window) string {
	app := w.AppID
	if app == "" {
		app = "an unknown app"
	}
	if w.Title == "" {
		return "a window of " + app
	}
	return "“" + w.Title + "” of " + app
}
