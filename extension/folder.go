package extension

import (
	"os"
	"path/filepath"
)

// Folder is the unpacked extension shipped with the buddi whose program is
// exe: <install root>/extension, the install root being the parent of the
// directory holding exe (bin/buddi in a checkout, so the checkout's own
// extension/). It is "" when that folder holds no manifest.json.
func Folder(exe string) string {
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return Unpacked(filepath.Join(filepath.Dir(filepath.Dir(exe)), "extension"))
}

// Unpacked is dir as an absolute path when it holds the extension's
// manifest.json, else "".
func Unpacked(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if st, err := os.Stat(filepath.Join(abs, "manifest.json")); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return abs
}

// Find is the unpacked extension a developer install loads: dir when given
// and it holds one, else the one shipped next to buddi's own program; ""
// when none is found.
func Find(dir string) string {
	if dir != "" {
		return Unpacked(dir)
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return Folder(exe)
}
