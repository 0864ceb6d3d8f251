package daemon

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// settings is the install's browser settings: the configuration, what
// settings.json adds where the environment is silent, and the mode root.
// The controller calls Apply with no session open and every browser closed.
type settings struct {
	d    *Daemon
	mu   sync.Mutex
	cfg  config.Config // in force
	file settingsFile  // as saved
}

var _ controller.Settings = (*settings)(nil)

// The settings the environment can fix, and by which variable.
const (
	varChannel      = "BUDDI_BROWSER_CHANNEL"
	varSiteApproval = "BUDDI_SITE_APPROVAL"
	varAirGap       = "BUDDI_AIR_GAP"
)

// withFile is c with the file's settings wherever the environment gave none.
func withFile(c config.Config, f settingsFile) config.Config {
	if f.Channel != "" && !c.Given[varChannel] {
		c.Channel = f.Channel
	}
	if f.SiteApproval != "" && !c.Given[varSiteApproval] {
		c.SiteApproval = f.SiteApproval
	}
	if f.AirGap != nil && !c.Given[varAirGap] {
		c.Egress.AirGap = *f.AirGap
	}
	if f.Headless != nil {
		c.Headless = *f.Headless
	}
	return c
}

// Current is the settings in force.
func (s *settings) Current() messages.BrowserSettings {
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
	return messages.BrowserSettings{Mode: s.d.mode.Name(), Modes: s.d.mode.choices(),
		Channel: c.Channel, Channels: config.Channels, Headless: !c.Display || c.Headless, HasDisplay: c.Display,
		SiteApproval: approval, AirGap: c.Egress.AirGap, Hosts: nonNil(c.Egress.Hosts),
		PreviewOrigins: nonNil(c.Egress.PreviewOrigins), Locked: locked, BrowserApp: apps.Browser, AllowedApps: nonNil(apps.Allowed)}
}

// Check refuses a change that cannot be made, before anything happens.
func (s *settings) Check(m *messages.ChangeSettings) *messages.Error {
	s.mu.Lock()
	c := s.cfg
	s.mu.Unlock()
	if e := s.checkModeAndApps(m); e != nil {
		return e
	}
	switch {
	case m.Channel != nil && c.Given[varChannel]:
		return messages.Locked("The browser", varChannel)
	case m.Channel != nil && *m.Channel != "" && !slices.Contains(config.Channels, *m.Channel):
		return messages.Errorf(messages.CodeBadInput, "%q is not a browser channel; use one of %v, or none for the browser buddi finds.", clip(*m.Channel), config.Channels)
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
// that are not a list of at most MaxAllowedApps ids.
func (s *settings) checkModeAndApps(m *messages.ChangeSettings) *messages.Error {
	if m.Mode != nil {
		if e := s.d.mode.refusal(*m.Mode); e != nil {
			return e
		}
	}
	return checkApps(m)
}

// Apply makes the change, saves it, and returns the settings in force.
// Air-gap turned on wipes the saved logins first (every browser is closed).
func (s *settings) Apply(_ context.Context, m *messages.ChangeSettings) (messages.BrowserSettings, error) {
	if err := s.apply(m); err != nil {
		return messages.BrowserSettings{}, err
	}
	return s.Current(), nil
}

func (s *settings) apply(m *messages.ChangeSettings) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, f := s.cfg, s.file
	if m.AirGap != nil && *m.AirGap != c.Egress.AirGap {
		if err := s.d.applyAirGap(*m.AirGap); err != nil {
			return err
		}
		if err := s.d.egress.setAirGap(*m.AirGap); err != nil {
			return fmt.Errorf("daemon: the egress rules: %w", err)
		}
		c.Egress.AirGap, f.AirGap = *m.AirGap, m.AirGap
	}
	if m.SiteApproval != nil {
		c.SiteApproval, f.SiteApproval = *m.SiteApproval, *m.SiteApproval
	}
	if m.Channel != nil || m.Headless != nil {
		if m.Channel != nil {
			c.Channel, f.Channel = *m.Channel, *m.Channel
		}
		if m.Headless != nil {
			c.Headless, f.Headless = *m.Headless, m.Headless
		}
		pm, err := newPlaywrightMode(s.d.playwrightConfig(c), s.d)
		if err != nil {
			return err
		}
		s.d.mode.replace(pm)
	}
	if m.Mode != nil {
		s.d.mode.use(*m.Mode)
		f.Mode = *m.Mode
	}
	if m.BrowserApp != nil {
		f.BrowserApp = *m.BrowserApp
	}
	if m.AllowedApps != nil {
		f.AllowedApps = distinct(*m.AllowedApps)
	}
	if err := writeSettings(c.DataDir, f); err != nil {
		return fmt.Errorf("daemon: save %s: %w", settingsPath(c.DataDir), err)
	}
	s.cfg, s.file = c, f
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// config is the configuration in force, with the owner's settings.
func (s *settings) config() config.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}
