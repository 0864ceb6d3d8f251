package playwright_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/drivers/playwright"
)

// Without a view of its own for the browser, the directories from the data
// directory down to the profile are opened to the browser's group: for an
// agent's own profile, the agents folder and the agent's too.
func TestPathToTheProfile(t *testing.T) {
	cases := map[string][]string{
		"/d/browser":                {"/d", "/d/browser"},
		"/d/browser/agents/ag_1":    {"/d", "/d/browser", "/d/browser/agents", "/d/browser/agents/ag_1"},
		"/d":                        {"/d"},
		"/elsewhere/profile-parent": {"/d"},
	}
	for dir, want := range cases {
		if got := playwright.PathTo("/d", dir); !slices.Equal(got, want) {
			t.Errorf("PathTo(/d, %s) = %v, want %v", dir, got, want)
		}
	}
}
