package bundle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/ui/web/bundle"
)

// The checked-in dist/ must be what src/ builds to: a change to the front
// end without `go generate ./ui/web` fails here.
func TestTheEmbeddedBundleIsFresh(t *testing.T) {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "dist"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("dist holds %d files and the build makes %d; run `go generate ./ui/web`", len(entries), len(files))
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, "dist", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("dist/%s is stale; run `go generate ./ui/web` and commit the result", name)
		}
	}
}
