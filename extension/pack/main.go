// Command pack writes the Chrome Web Store upload of the buddi extension,
// buddi-extension-<version>.zip, into the directory it is given (the
// current one by default): `go run ./extension/pack [DIR]`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/extension"
)

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "--help" || os.Args[1] == "-h") {
		fmt.Println("Usage: go run ./extension/pack [DIR]\n\nWrites buddi-extension-<version>.zip, the Chrome Web Store upload (no key), into DIR (default: here).")
		return
	}
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := pack(dir); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}

func pack(dir string) error {
	m, err := extension.ReadManifest()
	if err != nil {
		return err
	}
	path := filepath.Join(dir, extension.StoreZipName(m.Version))
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%w; choose a directory you can write to", err)
	}
	if err := extension.WriteStoreZip(f); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Println("Wrote", path)
	return nil
}
