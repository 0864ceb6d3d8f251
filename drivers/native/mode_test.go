//go:build linux

package native_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/native"
)

// Use my apps, as the daemon finds it (the helper, probed on a real
// desktop), passes the mode contract.
func TestModeContract(t *testing.T) {
	s := newDesktop(t, native.Apps{Browser: "google-chrome", Allowed: []string{realCalc}})
	m, why := native.Discover(ctx(t), linuxHelper, native.Config{Env: s.d.Env, Apps: func() native.Apps { return native.Apps{} }})
	if m == nil {
		t.Fatalf("the helper on a desktop was not offered: %s", why)
	}
	drivertest.RunMode(t, m)
}

// Without a helper found, Use my apps is not offered, and the reason names
// the variable to set.
func TestModeNotOfferedWithoutAHelper(t *testing.T) {
	m, why := native.Discover(ctx(t), "", native.Config{})
	if m != nil || !strings.Contains(why, "BUDDI_COMPUTER_HELPER") {
		t.Fatalf("Discover without a helper = %v, %q", m, why)
	}
}
