package egress

import "strings"

// serviceHosts serve the browser's own machinery, never a page: component
// and extension updates, Safe Browsing, field trials, optimization hints and
// model downloads. Nothing a page asked for goes to them, so a connection to
// one is the browser talking on nobody's behalf. The browser is told to
// send them nowhere (ChromiumFlags), and the guard refuses them by name,
// before any lookup, should it send them anyway. accounts.google.com is not
// here: pages sign in there; the browser's own sign-in calls are moved off
// it instead (ChromiumFlags).
var serviceHosts = []string{
	"update.googleapis.com",               // component updater (update_client)
	"clients2.google.com",                 // extension updates, network time
	"clients2.googleusercontent.com",      // extension downloads
	"clientservices.googleapis.com",       // field trials (variations)
	"safebrowsing.googleapis.com",         // Safe Browsing lists and lookups
	"sb-ssl.google.com",                   // Safe Browsing download checks
	"optimizationguide-pa.googleapis.com", // optimization hints and models
	"content-autofill.googleapis.com",     // autofill server predictions
	"redirector.gvt1.com",                 // component downloads
	"edgedl.me.gvt1.com",                  // component downloads
	"android.clients.google.com",          // push messaging check-in
}

// serviceHost reports whether bare (a lower-case name without a trailing
// dot) is one of serviceHosts.
func serviceHost(bare string) bool {
	for _, h := range serviceHosts {
		if bare == h {
			return true
		}
	}
	return false
}

// serviceBypass is the proxy bypass list entry that sends serviceHosts
// around the guard, where the browser's own resolver (which resolves
// nothing) ends them before any packet: they never reach the guard.
func serviceBypass() string {
	return strings.Join(serviceHosts, ";")
}
