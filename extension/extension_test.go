package extension_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/extension"
)

func TestIDFollowsChromesRule(t *testing.T) {
	// Chrome's own example pair: the key of the "Google Docs Offline"
	// extension is not at hand, so check the rule's shape and stability.
	id := extension.ID()
	if len(id) != 32 || strings.Trim(id, "abcdefghijklmnop") != "" {
		t.Fatalf("id %q is not 32 letters a-p", id)
	}
	if id == extension.StoreID {
		t.Fatal("the unpacked build has the store's id")
	}
	if _, err := extension.IDOf("not base64!"); err == nil {
		t.Fatal("a key that is not base64 made an id")
	}
}

func TestManifestVersionIsBuddis(t *testing.T) {
	b, err := os.ReadFile("../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	want, err := extension.ChromeVersion(string(b))
	if err != nil {
		t.Fatal(err)
	}
	m, err := extension.ReadManifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != want || m.VersionName != strings.TrimSpace(string(b)) {
		t.Fatalf("manifest.json has version %q (%q); VERSION makes %q (%q): update the manifest",
			m.Version, m.VersionName, want, strings.TrimSpace(string(b)))
	}
}

func TestChromeVersion(t *testing.T) {
	for in, want := range map[string]string{"0.1.0-pre.24": "0.1.0.24", "0.1.0-dev": "0.1.0.0",
		"1.2.3": "1.2.3.0", "v2.0.1-rc.3\n": "2.0.1.3", "1.2": "", "1.2.x": "", "1.2.3-pre.70000": "", "01.2.3": ""} {
		got, err := extension.ChromeVersion(in)
		if (err != nil) != (want == "") || got != want {
			t.Errorf("ChromeVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestRecordIsOwnerOnlyAndRoundTrips(t *testing.T) {
	dir := t.TempDir()
	if _, found, err := extension.Load(dir); found || err != nil {
		t.Fatalf("an empty dir has a record: %v %v", found, err)
	}
	rec := extension.Record{TokenHash: strings.Repeat("ab", 32), ID: extension.ID(), Build: "0.1.0.0",
		PairedAt: time.Unix(100, 0).UTC(), LastSeen: time.Unix(200, 0).UTC()}
	if err := extension.Save(dir, rec); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, extension.File))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	got, found, err := extension.Load(dir)
	if err != nil || !found || got != rec {
		t.Fatalf("loaded %+v %v %v; want %+v", got, found, err, rec)
	}
	if err := os.WriteFile(filepath.Join(dir, extension.File), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := extension.Load(dir); err == nil {
		t.Fatal("a damaged record loaded")
	}
	if err := extension.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := extension.Remove(dir); err != nil {
		t.Fatalf("removing nothing: %v", err)
	}
}
