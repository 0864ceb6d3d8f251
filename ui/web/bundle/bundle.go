// Package bundle builds the dashboard's front end from ui/web/src into the
// files ui/web embeds (dist/): one minified script, one style sheet, and
// the page, with esbuild's Go API, so the build needs Go and nothing else.
// It is used by `go generate ./ui/web` and by the test that fails when the
// checked-in files are stale; the buddi binary never links it.
package bundle

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Build bundles webDir/src and returns the files of dist by name.
func Build(webDir string) (map[string][]byte, error) {
	src := filepath.Join(webDir, "src")
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(src, "main.ts")},
		Bundle:            true,
		Write:             false,
		Outdir:            "dist",
		EntryNames:        "app",
		Format:            api.FormatESModule,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
		AbsWorkingDir:     webDir,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			where := ""
			if m.Location != nil {
				where = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
			}
			msgs = append(msgs, where+m.Text)
		}
		return nil, errors.New("bundle: " + strings.Join(msgs, "; "))
	}
	out := map[string][]byte{}
	for _, f := range res.OutputFiles {
		out[filepath.Base(f.Path)] = f.Contents
	}
	page, err := os.ReadFile(filepath.Join(src, "index.html"))
	if err != nil {
		return nil, err
	}
	out["index.html"] = page
	for _, want := range []string{"app.js", "app.css", "index.html"} {
		if out[want] == nil {
			return nil, fmt.Errorf("bundle: esbuild made no %s", want)
		}
	}
	return out, nil
}

// Write replaces webDir/dist with files.
func Write(webDir string, files map[string][]byte) error {
	dist := filepath.Join(webDir, "dist")
	if err := os.RemoveAll(dist); err != nil {
		return err
	}
	if err := os.MkdirAll(dist, 0o755); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dist, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
