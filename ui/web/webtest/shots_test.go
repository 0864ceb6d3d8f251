package webtest_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// The dashboard's screenshots go where git ignores them and tracks
// nothing: a test run leaves `git status` as it found it.
func TestScreenshotsStayOutOfTheTrackedTree(t *testing.T) {
	probe := filepath.Join(webtest.Shots(), "desktop-browser.png")
	if out, err := exec.Command("git", "check-ignore", "--no-index", probe).CombinedOutput(); err != nil {
		t.Fatalf("git does not ignore %s (%v: %s)", probe, err, out)
	}
	out, err := exec.Command("git", "ls-files", webtest.Shots()).CombinedOutput()
	if err != nil {
		t.Fatalf("git ls-files: %v: %s", err, out)
	}
	if tracked := strings.TrimSpace(string(out)); tracked != "" {
		t.Fatalf("git tracks files where the tests write screenshots:\n%s", tracked)
	}
}
