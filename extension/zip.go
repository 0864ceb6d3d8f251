package extension

import (
	"archive/zip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// files are the extension's own files, as Chrome loads them.
//
//go:embed manifest.json worker.js tabs.js popup.html popup.js popup.css
var files embed.FS

// fileNames lists them in the order the store upload holds them.
var fileNames = []string{"manifest.json", "worker.js", "tabs.js", "popup.html", "popup.js", "popup.css"}

// StoreZipName is the store upload's file name for a build of version.
func StoreZipName(version string) string { return "buddi-extension-" + version + ".zip" }

// WriteStoreZip writes the Chrome Web Store upload: the extension's files
// with the manifest's key taken out (the store gives the extension its own
// id, StoreID, which buddi also accepts).
func WriteStoreZip(w io.Writer) error {
	z := zip.NewWriter(w)
	for _, name := range fileNames {
		b, err := files.ReadFile(name)
		if err != nil {
			return fmt.Errorf("extension: %s is missing from the build: %w", name, err)
		}
		if name == "manifest.json" {
			if b, err = withoutKey(b); err != nil {
				return err
			}
		}
		f, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	return z.Close()
}

func withoutKey(manifest []byte) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("extension: read the manifest: %w", err)
	}
	delete(m, "key")
	return json.MarshalIndent(m, "", "  ")
}
