package native

import "testing"

// FuzzParseEvidence: a target's fingerprint comes back from the session as
// opaque bytes; reading it never panics, accepts only complete evidence,
// and reads back exactly what was written.
func FuzzParseEvidence(f *testing.F) {
	f.Add(evidence{App: "org.gnome.Calculator", Window: "w1:00", Locator: ":1.0/a", Element: "e1:00"}.String())
	f.Add(`{"a":"x","w":"y","l":"z"}`)
	f.Add("not evidence")
	f.Add(`{"a":"\u001f","w":"y","l":"z","e":"q","extra":1}`)
	f.Fuzz(func(t *testing.T, fp string) {
		e, ok := parseEvidence(fp)
		if !ok {
			return
		}
		if e.App == "" || e.Window == "" || e.Locator == "" || e.Element == "" {
			t.Fatalf("accepted incomplete evidence %+v from %q", e, fp)
		}
		again, ok := parseEvidence(e.String())
		if !ok || again != e {
			t.Fatalf("evidence %+v did not read back (%+v, %v)", e, again, ok)
		}
	})
}
