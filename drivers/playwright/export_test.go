package playwright

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// Shrink exposes the screenshot scaler to the black-box tests.
func Shrink(raw []byte, edge int) ([]byte, int, int, error) {
	s, err := shrink(raw, edge)
	if err != nil {
		return nil, 0, 0, err
	}
	return s.jpeg, s.width, s.height, nil
}

// WritePrefs exposes the profile preferences writer to the fuzz test.
var WritePrefs = writePrefs

// FindIn is Find on a made-up system: goos, a home directory, the
// executables that exist and the names PATH resolves.
func FindIn(cfg Config, goos, home string, exists map[string]bool, path map[string]string) (string, error) {
	l := lookup{goos: goos, home: home, executable: func(p string) bool { return exists[p] },
		onPath: func(name string) (string, error) {
			if p, ok := path[name]; ok {
				return p, nil
			}
			return "", errNoBrowser
		}}
	return l.find(cfg)
}

// SetViewport sets the size of the conversation's active tab.
func SetViewport(ctx context.Context, tabs drivers.Tabs, w, h int) error {
	t, err := tabs.(*Tabs).current()
	if err != nil {
		return err
	}
	return do(ctx, func() error { return t.page.SetViewportSize(w, h) })
}

// PathTo exposes the directories openToGroup opens.
var PathTo = pathTo
