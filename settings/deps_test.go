package settings_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The owner's browser settings, the mode in use and air-gap.
func TestSettingsImportOnlyTheConfigurationAndTheModes(t *testing.T) {
	deptest.Only(t, "settings", map[string]string{
		"config":             "settings.json fills in the configuration",
		"drivers":            "the mode root is a Mode",
		"drivers/native":     "Use my apps' apps, defaults and permissions",
		"drivers/playwright": "what air-gap wiped of the browser profiles",
		"messages":           "the settings page's view and refusals",
		"native/protocol":    "app ids are checked as the helper reads them",
	})
}
