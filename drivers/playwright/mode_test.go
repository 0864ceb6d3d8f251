package playwright_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/egress"
)

// The Playwright mode passes the mode contract with real Chromium behind a
// real egress guard, its shared profile and a profile per agent alike.
func TestModeContract(t *testing.T) {
	cfg := browsertest.Config(t)
	guard, err := egress.NewLive(egress.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = guard.Close() })
	m, err := playwright.NewMode(playwright.ModeConfig{
		Browser: func() playwright.Config { return cfg },
		Confine: func() (playwright.Confinement, error) {
			flags, ns, err := guard.Confine()
			return playwright.Confinement{Args: flags, NetNS: ns}, err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	drivertest.RunMode(t, m)
}
