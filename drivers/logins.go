package drivers

import (
	"context"

	"github.com/buddi-dev/buddi/messages"
)

// Logins is an optional capability of a Driver: the sites holding a login
// in its profile (cookies that outlive the browser), and signing them out.
type Logins interface {
	// Logins lists the sites holding a login, by site.
	Logins(ctx context.Context) ([]messages.Login, error)
	// SignOut clears the login of site, or of every site when site is "",
	// and returns the sites it cleared.
	SignOut(ctx context.Context, site string) ([]string, error)
}

// LoginsOf returns drv's logins, if its driver keeps any.
func LoginsOf(drv Driver) (Logins, bool) {
	l, ok := drv.(Logins)
	return l, ok
}
