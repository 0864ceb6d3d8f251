package mcp

import "net/http"

// Render exposes render to the black-box fuzz test.
var Render = render

// Guarded reports whether the /mcp guard for addr and public lets a
// request with host and origin (none when empty) through.
func Guarded(addr, public, host, origin string) (bool, error) {
	g, err := newGuard(addr, public)
	if err != nil {
		return false, err
	}
	r := &http.Request{Host: host, Header: http.Header{}}
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	return g.check(r) == nil, nil
}
