package settings

import (
	"slices"

	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
)

// appsOf is the file's apps, the defaults where it names none.
func appsOf(f File) native.Apps {
	a := native.DefaultApps()
	if f.BrowserApp != "" {
		a.Browser = f.BrowserApp
	}
	if f.AllowedApps != nil {
		a.Allowed = slices.Clone(f.AllowedApps)
	}
	return a
}

// Apps is the owner's choice of apps as settings.json holds it now.
func (s *Settings) Apps() native.Apps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return appsOf(s.file)
}

// AppsInUse reports whether the install is in Use my apps now.
func (s *Settings) AppsInUse() bool { return s.modes.Name() == native.Name }

// AppAllowed reports whether id is the browser app or on the list.
func (s *Settings) AppAllowed(id string) bool { return s.Apps().Allows(id) }

// AllowApp adds id to the allowed apps in settings.json, the owner's Always
// on a card; false, and nothing written, when the list is full.
func (s *Settings) AllowApp(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	apps := appsOf(s.file)
	if apps.Allows(id) {
		return true, nil
	}
	if len(apps.Allowed) >= messages.MaxAllowedApps {
		return false, nil
	}
	f := s.file
	f.AllowedApps = append(apps.Allowed, id)
	if err := write(s.cfg.DataDir, f); err != nil {
		return false, err
	}
	s.file = f
	return true, nil
}

// checkApps refuses a change of the browser app or the allowed apps that
// is not a list of at most messages.MaxAllowedApps app ids.
func checkApps(m *messages.ChangeSettings) *messages.Error {
	if m.BrowserApp != nil && !protocol.ValidAppID(*m.BrowserApp) {
		return messages.Errorf(messages.CodeBadInput, "%q is not an app id; give the browser app's id, such as com.google.Chrome.", messages.Clip(*m.BrowserApp, 60))
	}
	if m.AllowedApps == nil {
		return nil
	}
	if n := len(*m.AllowedApps); n > messages.MaxAllowedApps {
		return messages.Errorf(messages.CodeBadInput, "%d apps are more than the %d Use my apps allows; remove some.", n, messages.MaxAllowedApps)
	}
	for _, id := range *m.AllowedApps {
		if !protocol.ValidAppID(id) {
			return messages.Errorf(messages.CodeBadInput, "%q is not an app id; list apps by id, such as com.apple.calculator.", messages.Clip(id, 60))
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
