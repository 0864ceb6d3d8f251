package extension_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/extension"
)

func TestFolderIsTheExtensionBesideTheDirectoryHoldingBuddi(t *testing.T) {
	root := t.TempDir()
	exe := filepath.Join(root, "bin", "buddi")
	for _, dir := range []string{filepath.Dir(exe), filepath.Join(root, "extension"), filepath.Join(root, "elsewhere")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := extension.Folder(exe); got != "" {
		t.Fatalf("a folder with no manifest.json is %q, want none", got)
	}
	if err := os.WriteFile(filepath.Join(root, "extension", "manifest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(resolved, "extension")
	if got := extension.Folder(exe); got != want {
		t.Fatalf("Folder(%s) = %q, want %q", exe, got, want)
	}
	// A link to buddi (as in /usr/local/bin) finds the install it points into.
	link := filepath.Join(root, "elsewhere", "buddi")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	if got := extension.Folder(link); got != want {
		t.Fatalf("through a link, Folder = %q, want %q", got, want)
	}
	if got := extension.Unpacked(filepath.Join(root, "bin")); got != "" {
		t.Fatalf("a directory without the manifest is %q, want none", got)
	}
}
