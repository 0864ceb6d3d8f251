package native

import (
	"context"
	"os"
	"path/filepath"
	"runtime"

	"github.com/buddi-dev/buddi/messages"
)

// HelperName is the native helper's file name on this system.
func HelperName() string {
	if runtime.GOOS == "darwin" {
		return "buddi-computer"
	}
	return "buddi-computer-" + runtime.GOOS
}

// FindHelper is the helper's path: configured (BUDDI_COMPUTER_HELPER) when
// set, else the executable file named HelperName next to buddi's own; ""
// when there is none.
func FindHelper(configured string) string {
	if configured != "" {
		return configured
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), HelperName())
	if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

// notFound says where buddi looked for the helper and how to name one,
// after the word "No" or "no".
func notFound() string {
	return " computer-control helper (" + HelperName() + ") was found next to buddi; set BUDDI_COMPUTER_HELPER to its path"
}

// Discover is Use my apps over the helper FindHelper(configured) finds,
// when that helper runs here and finds what the mode needs (a display and
// the accessibility bus on Linux); otherwise nil and why not, as the
// settings page says it. cfg.Helper is set to the helper found.
func Discover(ctx context.Context, configured string, cfg Config) (*Mode, string) {
	cfg.Helper = FindHelper(configured)
	if cfg.Helper == "" {
		return nil, "no" + notFound() + "."
	}
	if ok, why := Available(ctx, cfg); !ok {
		return nil, why
	}
	return NewMode(cfg), ""
}

// PermissionsOf is Permissions of the helper FindHelper(configured) finds,
// for `buddi doctor` and the owner; without a helper it says where buddi
// looked.
func PermissionsOf(ctx context.Context, configured string, request bool) messages.Permissions {
	path := FindHelper(configured)
	if path == "" {
		return messages.Permissions{Checks: []messages.PermissionCheck{},
			Text: "No" + notFound() + " to offer Use my apps."}
	}
	return Permissions(ctx, Config{Helper: path}, request)
}

// DefaultApps are Use my apps' apps on a new install: Chrome selected as the
// browser app, Chrome and Safari allowed (on Linux, where there is no
// Safari, Chrome and Chromium, by their desktop ids).
func DefaultApps() Apps {
	if runtime.GOOS == "darwin" {
		return Apps{Browser: "com.google.Chrome", Allowed: []string{"com.google.Chrome", "com.apple.Safari"}}
	}
	return Apps{Browser: "google-chrome", Allowed: []string{"google-chrome", "chromium"}}
}
