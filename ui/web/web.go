// Package web is the owner's dashboard as the browser loads it: one HTML
// page, one script and one style sheet, built from the TypeScript and CSS
// in src/ by esbuild (see package bundle) into dist/, which is checked in
// and embedded here, so `go build` needs no Node.js and no separate step.
// `go generate ./ui/web` rebuilds dist/; a test fails when it is stale.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
	"strings"
)

//go:generate go run ./gen

//go:embed dist
var dist embed.FS

// Asset is one file the dashboard serves.
type Asset struct {
	Type string // its Content-Type
	Body []byte
	Gzip []byte // Body gzipped, for clients that accept it
	ETag string
}

// Assets are the served files by URL path: "/" (the page), and
// "/assets/<name>" for the rest.
func Assets() (map[string]*Asset, error) {
	out := map[string]*Asset{}
	err := fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := dist.ReadFile(p)
		if err != nil {
			return err
		}
		a, err := newAsset(p, body)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(p, "dist/")
		if name == "index.html" {
			out["/"] = a
		} else {
			out["/assets/"+name] = a
		}
		return nil
	})
	return out, err
}

func newAsset(name string, body []byte) (*Asset, error) {
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(body); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	return &Asset{Type: contentType(name), Body: body, Gzip: z.Bytes(), ETag: `"` + hex.EncodeToString(sum[:8]) + `"`}, nil
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}
