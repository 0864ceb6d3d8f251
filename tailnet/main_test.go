//go:build tailnet

package tailnet_test

import (
	"os"
	"testing"

	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	webtest.Stop() // the dashboard tests' Chromium
	os.Exit(code)
}
