package daemon

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
)

// MaxAllowedApps is how many apps the owner's list of allowed apps holds.
const MaxAllowedApps = messages.MaxAllowedApps

// DefaultApps are Use my apps' apps on a new install: Chrome selected as the
// browser app, Chrome and Safari allowed (on Linux, where there is no
// Safari, Chrome and Chromium, by their desktop ids).
func DefaultApps() native.Apps {
	if runtime.GOOS == "darwin" {
		return native.Apps{Browser: "com.google.Chrome", Allowed: []string{"com.google.Chrome", "com.apple.Safari"}}
	}
	return native.Apps{Browser: "google-chrome", Allowed: []string{"google-chrome", "chromium"}}
}

// appsOf is the file's apps, the defaults where it names none.
func appsOf(f settingsFile) native.Apps {
	a := DefaultApps()
	if f.BrowserApp != "" {
		a.Browser = f.BrowserApp
	}
	if f.AllowedApps != nil {
		a.Allowed = slices.Clone(f.AllowedApps)
	}
	return a
}

// helperName is the native helper's file name on this system.
func helperName() string {
	if runtime.GOOS == "darwin" {
		return "buddi-computer"
	}
	return "buddi-computer-" + runtime.GOOS
}

// ComputerPermissions is what Use my apps' helper finds it has here, for
// `buddi doctor` and the owner; with request it first asks the system for
// what is missing. Without a helper it says where buddi looked.
func ComputerPermissions(ctx context.Context, c config.Config, request bool) messages.Permissions {
	path := computerHelper(c)
	if path == "" {
		return messages.Permissions{Checks: []messages.PermissionCheck{},
			Text: "No computer-control helper (" + helperName() + ") was found next to buddi; set BUDDI_COMPUTER_HELPER to its path to offer Use my apps."}
	}
	return native.Permissions(ctx, native.Config{Helper: path}, request)
}

// Permissions is ComputerPermissions for this install's configuration.
func (s *settings) Permissions(ctx context.Context, request bool) messages.Permissions {
	return ComputerPermissions(ctx, s.config(), request)
}

var _ controller.Permissions = (*settings)(nil)

// computerHelper is the helper's path: the configuration's, else the one
// next to buddi's executable; "" when there is none.
func computerHelper(c config.Config) string {
	if c.ComputerHelper != "" {
		return c.ComputerHelper
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), helperName())
	if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

// computerMode is Use my apps when its helper is here and its probe finds
// what the mode needs (a display and the accessibility bus on Linux), with
// why not otherwise.
func (d *Daemon) computerMode(c config.Config) (*native.Mode, string) {
	path := computerHelper(c)
	if path == "" {
		return nil, "no computer-control helper (" + helperName() + ") was found next to buddi; set BUDDI_COMPUTER_HELPER to its path."
	}
	// The controller's app gate answers for apps off the list before an open
	// is dispatched (a card, then Once or Always), so what reaches the
	// driver was approved.
	approved := func(context.Context, string, protocol.App) error { return nil }
	cfg := native.Config{Helper: path, Logger: d.opts.Log, Apps: d.apps, Lock: desktopLock{d}, Approve: approved}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ok, why := native.Available(ctx, cfg); !ok {
		return nil, why
	}
	return native.NewMode(cfg), ""
}

// apps is the owner's choice of apps as settings.json holds it now.
func (d *Daemon) apps() native.Apps {
	if d.settings == nil {
		return appsOf(settingsFile{})
	}
	d.settings.mu.Lock()
	defer d.settings.mu.Unlock()
	return appsOf(d.settings.file)
}

var _ controller.AppSettings = (*settings)(nil)

// AppsInUse reports whether the install is in Use my apps now.
func (s *settings) AppsInUse() bool { return s.d.mode.Name() == native.Name }

// AppAllowed reports whether id is the browser app or on the list.
func (s *settings) AppAllowed(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return appsOf(s.file).Allows(id)
}

// AllowApp adds id to the allowed apps in settings.json, the owner's Always
// on a card; false, and nothing written, when the list is full.
func (s *settings) AllowApp(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	apps := appsOf(s.file)
	if apps.Allows(id) {
		return true, nil
	}
	if len(apps.Allowed) >= MaxAllowedApps {
		return false, nil
	}
	f := s.file
	f.AllowedApps = append(apps.Allowed, id)
	if err := writeSettings(s.d.cfg.DataDir, f); err != nil {
		return false, err
	}
	s.file = f
	return true, nil
}

// checkApps refuses a change of the browser app or the allowed apps that
// is not a list of at most MaxAllowedApps app ids.
func checkApps(m *messages.ChangeSettings) *messages.Error {
	if m.BrowserApp != nil && !protocol.ValidAppID(*m.BrowserApp) {
		return messages.Errorf(messages.CodeBadInput, "%q is not an app id; give the browser app's id, such as com.google.Chrome.", clip(*m.BrowserApp))
	}
	if m.AllowedApps == nil {
		return nil
	}
	if n := len(*m.AllowedApps); n > MaxAllowedApps {
		return messages.Errorf(messages.CodeBadInput, "%d apps are more than the %d Use my apps allows; remove some.", n, MaxAllowedApps)
	}
	for _, id := range *m.AllowedApps {
		if !protocol.ValidAppID(id) {
			return messages.Errorf(messages.CodeBadInput, "%q is not an app id; list apps by id, such as com.apple.calculator.", clip(id))
		}
	}
	return nil
}

// distinct is ids without repeats, in their order.
func distinct(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
