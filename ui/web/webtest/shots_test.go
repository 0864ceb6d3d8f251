package webtest_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// A plain test run writes the dashboard's screenshots where git tracks
// nothing (outside the work tree, or inside it only where git ignores
// them): a test run leaves `git status` as it found it. Only -shots
// (make shots) writes the committed ones.
func TestScreenshotsStayOutOfTheTrackedTree(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	shots, err := filepath.Abs(webtest.Shots())
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(strings.TrimSpace(string(top)), shots)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return // outside the work tree: git cannot track it
	}
	probe := filepath.Join(shots, "desktop-browser.png")
	if out, err := exec.Command("git", "check-ignore", "--no-index", probe).CombinedOutput(); err != nil {
		t.Fatalf("the screenshots go to %s in the work tree, which git does not ignore (%v: %s)", shots, err, out)
	}
	out, err := exec.Command("git", "ls-files", shots).CombinedOutput()
	if err != nil {
		t.Fatalf("git ls-files: %v: %s", err, out)
	}
	if tracked := strings.TrimSpace(string(out)); tracked != "" {
		t.Fatalf("git tracks files where the tests write screenshots:\n%s", tracked)
	}
}
