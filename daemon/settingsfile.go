package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// settingsFile is <data>/browser/settings.json: the browser settings the
// owner chose in the dashboard. A setting left out keeps what buddi's
// configuration says; a setting the environment fixes wins over the file.
type settingsFile struct {
	Mode         string `json:"mode,omitempty"`
	Channel      string `json:"channel,omitempty"`
	Headless     *bool  `json:"headless,omitempty"`
	SiteApproval string `json:"siteApproval,omitempty"`
	AirGap       *bool  `json:"airGap,omitempty"`
	// BrowserApp and AllowedApps are Use my apps' choices: the app navigate
	// opens tabs in, and the apps open may bring forward, by id. Unset, they
	// are the defaults (DefaultApps); agents never write them.
	BrowserApp  string   `json:"browserApp,omitempty"`
	AllowedApps []string `json:"allowedApps,omitempty"`
}

func settingsPath(dataDir string) string {
	return filepath.Join(dataDir, "browser", "settings.json")
}

// readSettings reads the file; a missing file is an empty one.
func readSettings(dataDir string) (settingsFile, error) {
	var f settingsFile
	raw, err := os.ReadFile(settingsPath(dataDir))
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("daemon: read %s: %w", settingsPath(dataDir), err)
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("daemon: %s is not valid JSON (%w); fix or remove it", settingsPath(dataDir), err)
	}
	if n := len(f.AllowedApps); n > MaxAllowedApps {
		return f, fmt.Errorf("daemon: %s allows %d apps, more than %d; remove some from allowedApps", settingsPath(dataDir), n, MaxAllowedApps)
	}
	return f, nil
}

// writeSettings replaces the file, owner-only, in one rename, synced.
func writeSettings(dataDir string, f settingsFile) error {
	path := settingsPath(dataDir)
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
