package egress_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	cfg, err := egress.ConfigFromEnv(env(map[string]string{
		"BUDDI_BROWSER_HOSTS":   " example.com, accounts.example.com ,",
		"BUDDI_PREVIEW_ORIGINS": "http://127.0.0.1:5173,http://localhost:3000/,https://[::1]:8443, http://app.localhost",
		"BUDDI_AIR_GAP":         "1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Hosts, []string{"example.com", "accounts.example.com"}) {
		t.Errorf("Hosts = %q", cfg.Hosts)
	}
	if len(cfg.PreviewOrigins) != 4 || !cfg.AirGap {
		t.Errorf("got %+v", cfg)
	}
	empty, err := egress.ConfigFromEnv(env(nil))
	if err != nil || empty.AirGap || empty.Hosts != nil || empty.PreviewOrigins != nil {
		t.Errorf("empty env: %+v, %v", empty, err)
	}
}

func TestConfigFromEnvErrors(t *testing.T) {
	cases := map[string]struct{ key, value string }{
		"air gap yes please":  {"BUDDI_AIR_GAP", "yes please"},
		"air gap 2":           {"BUDDI_AIR_GAP", "2"},
		"host with scheme":    {"BUDDI_BROWSER_HOSTS", "https://example.com"},
		"host wildcard":       {"BUDDI_BROWSER_HOSTS", "*.example.com"},
		"host with port":      {"BUDDI_BROWSER_HOSTS", "example.com:443"},
		"host path":           {"BUDDI_BROWSER_HOSTS", "example.com/x"},
		"host space":          {"BUDDI_BROWSER_HOSTS", "exa mple.com"},
		"preview wildcard":    {"BUDDI_PREVIEW_ORIGINS", "http://127.0.0.1:*"},
		"preview star host":   {"BUDDI_PREVIEW_ORIGINS", "http://*:5173"},
		"preview public":      {"BUDDI_PREVIEW_ORIGINS", "http://example.com:5173"},
		"preview private":     {"BUDDI_PREVIEW_ORIGINS", "http://192.168.1.10:5173"},
		"preview no scheme":   {"BUDDI_PREVIEW_ORIGINS", "127.0.0.1:5173"},
		"preview ftp":         {"BUDDI_PREVIEW_ORIGINS", "ftp://127.0.0.1:21"},
		"preview path":        {"BUDDI_PREVIEW_ORIGINS", "http://127.0.0.1:5173/app"},
		"preview query":       {"BUDDI_PREVIEW_ORIGINS", "http://127.0.0.1:5173/?a=b"},
		"preview userinfo":    {"BUDDI_PREVIEW_ORIGINS", "http://me@127.0.0.1:5173"},
		"preview mapped":      {"BUDDI_PREVIEW_ORIGINS", "http://[::ffff:127.0.0.1]:5173"},
		"preview legacy v4":   {"BUDDI_PREVIEW_ORIGINS", "http://2130706433:5173"},
		"preview port range":  {"BUDDI_PREVIEW_ORIGINS", "http://127.0.0.1:70000"},
		"preview unspecified": {"BUDDI_PREVIEW_ORIGINS", "http://0.0.0.0:5173"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := egress.ConfigFromEnv(env(map[string]string{c.key: c.value}))
			if err == nil {
				t.Fatalf("%s=%q accepted", c.key, c.value)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.value) || strings.Count(msg, "; ") != 1 || !strings.HasSuffix(msg, "") {
				t.Errorf("error %q should name %q and say what is accepted", msg, c.value)
			}
			if _, err := egress.NewPolicy(egress.Config{Hosts: []string{c.value}, PreviewOrigins: nil}); c.key == "BUDDI_BROWSER_HOSTS" && err == nil {
				t.Errorf("NewPolicy accepted host %q", c.value)
			}
		})
	}
}
