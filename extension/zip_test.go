package extension_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/extension"
)

// TestTheStoreUploadIsTheExtensionWithoutItsKey: every file Chrome loads
// is in the zip as it is in the folder, but the manifest, which keeps its
// version and loses its key.
func TestTheStoreUploadIsTheExtensionWithoutItsKey(t *testing.T) {
	var buf bytes.Buffer
	if err := extension.WriteStoreZip(&buf); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		_ = r.Close()
		if f.Name == "manifest.json" {
			var m map[string]any
			if err := json.Unmarshal(got, &m); err != nil || m["key"] != nil || m["version"] == nil || m["manifest_version"] != float64(3) {
				t.Fatalf("the store manifest: %s (%v)", got, err)
			}
			continue
		}
		want, err := os.ReadFile(f.Name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s in the zip differs from the folder's (%v)", f.Name, err)
		}
	}
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".js", ".css", ".html":
			if !slices.Contains(names, e.Name()) {
				t.Errorf("%s is in the folder but not in the store upload", e.Name())
			}
		}
	}
}
