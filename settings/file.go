package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// File is <data>/browser/settings.json: the browser settings the owner
// chose in the dashboard. A setting left out keeps what buddi's
// configuration says; a setting the environment fixes wins over the file.
type File struct {
	Mode         string `json:"mode,omitempty"`
	Channel      string `json:"channel,omitempty"`
	Headless     *bool  `json:"headless,omitempty"`
	SiteApproval string `json:"siteApproval,omitempty"`
	AirGap       *bool  `json:"airGap,omitempty"`
	// BrowserApp and AllowedApps are Use my apps' choices: the app navigate
	// opens tabs in, and the apps open may bring forward, by id. Unset, they
	// are the defaults (native.DefaultApps); agents never write them.
	BrowserApp  string   `json:"browserApp,omitempty"`
	AllowedApps []string `json:"allowedApps,omitempty"`
}

// The settings the environment can fix, and by which variable.
const (
	varChannel      = "BUDDI_BROWSER_CHANNEL"
	varSiteApproval = "BUDDI_SITE_APPROVAL"
	varAirGap       = "BUDDI_AIR_GAP"
)

// AirGapByEnv reports whether the environment set air-gap in c: the
// dashboard cannot turn it off then, only a restart without it.
func AirGapByEnv(c config.Config) bool { return c.Given[varAirGap] }

// Over is c with the file's settings wherever the environment gave none.
func (f File) Over(c config.Config) config.Config {
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

// Path is where the file is.
func Path(dataDir string) string {
	return filepath.Join(dataDir, "browser", "settings.json")
}

// Read reads the file; a missing file is an empty one.
func Read(dataDir string) (File, error) {
	var f File
	raw, err := os.ReadFile(Path(dataDir))
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("settings: read %s: %w", Path(dataDir), err)
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("settings: %s is not valid JSON (%w); fix or remove it", Path(dataDir), err)
	}
	if n := len(f.AllowedApps); n > messages.MaxAllowedApps {
		return f, fmt.Errorf("settings: %s allows %d apps, more than %d; remove some from allowedApps", Path(dataDir), n, messages.MaxAllowedApps)
	}
	return f, nil
}

// write replaces the file, owner-only, in one rename, synced.
func write(dataDir string, f File) error {
	path := Path(dataDir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(raw, '\n')); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
