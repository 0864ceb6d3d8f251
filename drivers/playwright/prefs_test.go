package playwright_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/drivers/playwright"
)

// FuzzWritePrefs: whatever the profile's Preferences held (the browser
// writes that file, and a compromised one may write anything), the file
// afterwards is a JSON object holding the WebRTC policy, and other keys an
// object held are kept.
func FuzzWritePrefs(f *testing.F) {
	for _, seed := range []string{"", "null", "[]", "{", `{"webrtc":1}`, `{"webrtc":{"ip_handling_policy":"default","x":1}}`, `{"other":{"k":true}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, old []byte) {
		profile := t.TempDir()
		path := filepath.Join(profile, "Default", "Preferences")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, old, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := playwright.WritePrefs(profile); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			WebRTC struct {
				Policy   string `json:"ip_handling_policy"`
				UDP      *bool  `json:"nonproxied_udp_enabled"`
				Multiple *bool  `json:"multiple_routes_enabled"`
			} `json:"webrtc"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%q became %q: %v", old, raw, err)
		}
		if got.WebRTC.Policy != "disable_non_proxied_udp" || got.WebRTC.UDP == nil || *got.WebRTC.UDP || got.WebRTC.Multiple == nil || *got.WebRTC.Multiple {
			t.Fatalf("%q became %q", old, raw)
		}
		var before, after map[string]any
		if json.Unmarshal(old, &before) == nil && before != nil {
			_ = json.Unmarshal(raw, &after)
			for k := range before {
				if _, ok := after[k]; !ok {
					t.Fatalf("key %q of %q was lost: %q", k, old, raw)
				}
			}
		}
	})
}
