package settings

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/messages"
)

// Config is what the settings need besides the configuration and the file.
type Config struct {
	// Config is buddi's configuration as the environment and flags give it.
	Config config.Config
	// File is settings.json as read when buddi started.
	File File
	// Modes are the modes the install offers; the setting "mode" switches
	// among them.
	Modes *Modes
	// AirGap turns air-gap on or off (AirGap.Set).
	AirGap func(on bool) error
}

// Settings is the install's browser settings: the configuration, what
// settings.json adds where the environment is silent, and the mode in use.
// The controller calls Apply with no session open and every browser
// closed (actors/controller.Settings).
//
// Concurrency: safe for concurrent use; mu guards what is in force and
// what is saved, and is held across a change, its side effects and its
// save, so changes take turns.
type Settings struct {
	modes  *Modes
	airGap func(bool) error

	mu   sync.Mutex
	cfg  config.Config // in force
	file File          // as saved
}

// New returns the settings in force at start.
func New(c Config) *Settings {
	return &Settings{modes: c.Modes, airGap: c.AirGap, cfg: c.File.Over(c.Config), file: c.File}
}

// Config is the configuration in force, with the owner's settings.
func (s *Settings) Config() config.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// Current is the settings in force.
func (s *Settings) Current() messages.BrowserSettings {
	s.mu.Lock()
	c, apps := s.cfg, appsOf(s.file)
	s.mu.Unlock()
	locked := map[string]string{}
	for setting, v := range map[string]string{"channel": varChannel, "siteApproval": varSiteApproval, "airGap": varAirGap} {
		if c.Given[v] {
			locked[setting] = v
		}
	}
	approval := c.SiteApproval
	if approval == "" {
		approval = "off"
	}
	return messages.BrowserSettings{Mode: s.modes.Name(), Modes: s.modes.choices(),
		Channel: c.Channel, Channels: config.Channels, Headless: !c.Display || c.Headless, HasDisplay: c.Display,
		SiteApproval: approval, AirGap: c.Egress.AirGap, Hosts: nonNil(c.Egress.Hosts),
		PreviewOrigins: nonNil(c.Egress.PreviewOrigins), Locked: locked, BrowserApp: apps.Browser, AllowedApps: nonNil(apps.Allowed)}
}

// Check refuses a change that cannot be made, before anything happens.
func (s *Settings) Check(m *messages.ChangeSettings) *messages.Error {
	if e := s.checkModeAndApps(m); e != nil {
		return e
	}
	c := s.Config()
	switch {
	case m.Channel != nil && c.Given[varChannel]:
		return messages.Locked("The browser", varChannel)
	case m.Channel != nil && *m.Channel != "" && !slices.Contains(config.Channels, *m.Channel):
		return messages.Errorf(messages.CodeBadInput, "%q is not a browser channel; use one of %v, or none for the browser buddi finds.", messages.Clip(*m.Channel, 60), config.Channels)
	case m.Headless != nil && !*m.Headless && !c.Display:
		return &messages.Error{Code: messages.CodeLocked, Message: "This computer has no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the browser can only run headless."}
	case m.SiteApproval != nil && c.Given[varSiteApproval]:
		return messages.Locked("Site approval", varSiteApproval)
	case m.AirGap != nil && c.Given[varAirGap]:
		return messages.Locked("Air-gap", varAirGap)
	}
	return nil
}

// checkModeAndApps refuses a mode the install does not offer, and apps
// that are not a list of at most messages.MaxAllowedApps ids.
func (s *Settings) checkModeAndApps(m *messages.ChangeSettings) *messages.Error {
	if m.Mode != nil {
		if e := s.modes.refusal(*m.Mode); e != nil {
			return e
		}
	}
	return checkApps(m)
}

// Apply makes the change, saves it, and returns the settings in force.
// Air-gap turned on wipes the saved logins first (every browser is closed);
// a new channel or headless takes effect with the next browser.
func (s *Settings) Apply(_ context.Context, m *messages.ChangeSettings) (messages.BrowserSettings, error) {
	if err := s.apply(m); err != nil {
		return messages.BrowserSettings{}, err
	}
	return s.Current(), nil
}

func (s *Settings) apply(m *messages.ChangeSettings) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, f := s.cfg, s.file
	if m.AirGap != nil && *m.AirGap != c.Egress.AirGap {
		if err := s.airGap(*m.AirGap); err != nil {
			return err
		}
		c.Egress.AirGap, f.AirGap = *m.AirGap, m.AirGap
	}
	if m.SiteApproval != nil {
		c.SiteApproval, f.SiteApproval = *m.SiteApproval, *m.SiteApproval
	}
	if m.Channel != nil {
		c.Channel, f.Channel = *m.Channel, *m.Channel
	}
	if m.Headless != nil {
		c.Headless, f.Headless = *m.Headless, m.Headless
	}
	if m.Mode != nil {
		s.modes.use(*m.Mode)
		f.Mode = *m.Mode
	}
	if m.BrowserApp != nil {
		f.BrowserApp = *m.BrowserApp
	}
	if m.AllowedApps != nil {
		f.AllowedApps = distinct(*m.AllowedApps)
	}
	if err := write(c.DataDir, f); err != nil {
		return fmt.Errorf("settings: save %s: %w", Path(c.DataDir), err)
	}
	s.cfg, s.file = c, f
	return nil
}

// Permissions is what Use my apps' helper finds it has; with request it
// first asks the system for what is missing.
func (s *Settings) Permissions(ctx context.Context, request bool) messages.Permissions {
	return native.PermissionsOf(ctx, s.Config().ComputerHelper, request)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
