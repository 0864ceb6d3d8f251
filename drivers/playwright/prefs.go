package playwright

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// profilePrefs are merged into the profile's Preferences before every
// launch. Chromium reads them at start-up; the command-line switches meant
// for the same things (--force-webrtc-ip-handling-policy among them) have no
// effect on the Chromium we run, while these do:
//
//   - WebRTC may not send UDP that does not go through the proxy. Chromium
//     cannot send UDP through a SOCKS proxy at all, so a page gathers no
//     UDP candidate and sends no STUN, TURN or ICE packet to anyone.
//   - Safe Browsing is off: its list updates and lookups are traffic of
//     the browser's own, which reaches the guard on nobody's behalf.
var profilePrefs = map[string]any{
	"webrtc": map[string]any{
		"ip_handling_policy":      "disable_non_proxied_udp",
		"multiple_routes_enabled": false,
		"nonproxied_udp_enabled":  false,
	},
	"safebrowsing": map[string]any{"enabled": false},
}

// writePrefs merges profilePrefs into <profile>/Default/Preferences, keeping
// everything else the file holds. A file that is not a JSON object (Chromium
// would reset it anyway) is replaced. It runs as the account the browser
// runs as, so the file stays that account's.
func writePrefs(profile string) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	path := filepath.Join(dir, "Preferences")
	prefs := map[string]any{}
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		if json.Unmarshal(raw, &prefs) != nil || prefs == nil {
			prefs = map[string]any{}
		}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	merge(prefs, profilePrefs)
	out, err := json.Marshal(prefs)
	if err != nil {
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	return writeAtomic(path, out)
}

// merge copies src into dst, descending into objects both sides hold.
func merge(dst, src map[string]any) {
	for k, v := range src {
		sub, ok := v.(map[string]any)
		if !ok {
			dst[k] = v
			continue
		}
		have, ok := dst[k].(map[string]any)
		if !ok {
			have = map[string]any{}
			dst[k] = have
		}
		merge(have, sub)
	}
}

// writeAtomic replaces path with data (mode 0600) through a temporary file
// in the same directory, so a crash leaves the old file or the new one.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".prefs-*")
	if err != nil {
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("playwright: profile preferences: %w", err)
	}
	return nil
}
