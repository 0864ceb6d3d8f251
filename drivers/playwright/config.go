package playwright

import (
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/drivers/walker"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvChannel     = "BUDDI_BROWSER_CHANNEL"
	EnvNoSandbox   = "BUDDI_BROWSER_NO_SANDBOX"
	EnvBrowserUser = "BUDDI_BROWSER_USER"
)

// Field is what CheckField sees of an input before text goes into it.
type Field = walker.Field

// Config is what a Driver needs. Only DataDir is required.
type Config struct {
	DataDir   string   // the profile lives in <DataDir>/browser/profile, unless Profile says otherwise
	Profile   string   // the profile directory (absolute); "" means <DataDir>/browser/profile
	Channel   string   // a Chrome channel such as "chrome" (BUDDI_BROWSER_CHANNEL)
	NoSandbox bool     // run Chromium without its sandbox (BUDDI_BROWSER_NO_SANDBOX=1)
	Headless  *bool    // nil: headed when DISPLAY or WAYLAND_DISPLAY is set
	ExtraArgs []string // egress flags from the caller: proxy and the like

	// BrowserUser is the unprivileged account the browser side runs as when
	// buddi runs as root (BUDDI_BROWSER_USER); "" means DefaultBrowserUser,
	// created on the first launch if missing. Not read otherwise.
	BrowserUser string
	// NetNS, when set, is a network namespace (a path to open for setns)
	// the browser side runs in: the caller's way to make the egress guard
	// its only route. It takes buddi running as root.
	NetNS string

	// CheckURL is called for every document request: navigations, each
	// redirect hop, popups and frames. A non-nil error blocks it; its code is
	// kept when it is a messages.Coded error (a *drivers.Error, an egress
	// refusal), else the code is not_allowed. Its text is the sentence the
	// agent reads.
	CheckURL func(raw string) error
	// OwnerURL, when set, checks instead of CheckURL what a page the owner
	// drives (pinned for the hand) opens: the owner's own browsing, such as
	// a sign-in, whose redirects may carry codes an agent's may not.
	OwnerURL func(raw string) error
	// OnRefused, when set, is told of every URL CheckURL refused for a
	// conversation's tabs (navigations, redirect hops, history, popups,
	// frames), once per refusal, with the error the agent reads.
	OnRefused func(conversation, url string, err error)
	// CheckField is called before text goes into a field (fill, or a
	// character key pressed into it). A non-nil error refuses the input.
	CheckField func(f Field, value string) error
	// FieldRules are the credential rules in data form (JSON of
	// egress.CredentialRules): reads mask the value of every field they
	// classify, and every value that looks like a key, and so do the
	// agent's screenshots. Without them only password fields are masked.
	FieldRules json.RawMessage

	Logger *slog.Logger
}

// ConfigFromEnv returns a Config for dataDir with Channel, NoSandbox and
// BrowserUser read from the environment.
func ConfigFromEnv(dataDir string) Config {
	return Config{
		DataDir:     dataDir,
		Channel:     os.Getenv(EnvChannel),
		NoSandbox:   os.Getenv(EnvNoSandbox) == "1",
		BrowserUser: os.Getenv(EnvBrowserUser),
	}
}

func (c *Config) validate() error {
	if c.DataDir == "" {
		return errors.New("playwright: Config.DataDir is required")
	}
	if !filepath.IsAbs(c.DataDir) {
		return errors.New("playwright: Config.DataDir must be an absolute path")
	}
	if c.Profile != "" && !filepath.IsAbs(c.Profile) {
		return errors.New("playwright: Config.Profile must be an absolute path")
	}
	if _, ok := channelPaths[c.Channel]; c.Channel != "" && !ok {
		return errors.New("playwright: unknown browser channel " + c.Channel)
	}
	if len(c.FieldRules) > 0 && !json.Valid(c.FieldRules) {
		return errors.New("playwright: Config.FieldRules is not JSON")
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return nil
}

func (c *Config) headless() bool {
	if c.Headless != nil {
		return *c.Headless
	}
	return os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}

func (c *Config) browserUser() string {
	if c.BrowserUser != "" {
		return c.BrowserUser
	}
	return DefaultBrowserUser
}

func (c *Config) profileDir() string {
	if c.Profile != "" {
		return c.Profile
	}
	return filepath.Join(c.DataDir, "browser", "profile")
}
