package macos

import "strings"

// nameQuery is the Spotlight query for installed applications whose display
// name is name in any case, with or without the .app extension. The name is
// quoted so that nothing in it is read as a wildcard or as query syntax.
func nameQuery(name string) string {
	q := quoteQuery(name)
	return `kMDItemContentType == "com.apple.application-bundle" && (kMDItemDisplayName == "` + q + `"c || kMDItemDisplayName == "` + q + `.app"c)`
}

func quoteQuery(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '"', '*', '?', '\'':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// appName is an app's name as Spotlight shows it, without .app.
func appName(display string) string { return strings.TrimSuffix(display, ".app") }
