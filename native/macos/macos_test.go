package macos

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/native/protocol"
)

// These tests are internal: they check the plain-Go parts the darwin
// files use, which run the same on every system.

func TestEveryNamedKeyHasAVirtualKey(t *testing.T) {
	for _, k := range protocol.NamedKeys {
		if _, ok := keyFor(k); !ok {
			t.Errorf("press allows %s but the helper has no virtual key for it", k)
		}
	}
	if k, ok := runeKey('\n'); !ok || k != virtualKeys["Enter"] {
		t.Error("a newline in a fill value is not Return")
	}
	if _, ok := runeKey('a'); ok {
		t.Error("a letter is sent as a virtual key instead of its Unicode string")
	}
}

func TestUTF16Of(t *testing.T) {
	cases := map[rune][]uint16{'a': {0x61}, '×': {0xD7}, '😀': {0xD83D, 0xDE00}}
	for r, want := range cases {
		if got := utf16Of(r); !slices.Equal(got, want) {
			t.Errorf("utf16Of(%q) = %x, want %x", r, got, want)
		}
	}
}

func TestRolesMapOntoTheProtocol(t *testing.T) {
	for ax, role := range axRoles {
		if !protocol.Roles[role] {
			t.Errorf("%s maps to %q, which is not a protocol role", ax, role)
		}
	}
	for ax, role := range axSubroles {
		if !protocol.Roles[role] {
			t.Errorf("subrole %s maps to %q, which is not a protocol role", ax, role)
		}
	}
	cases := map[[2]string]string{
		{"AXTextField", "AXSecureTextField"}: "textbox",
		{"AXButton", ""}:                     "button",
		{"AXRadioButton", "AXTabButton"}:     "tab",
		{"AXUnknownThing", ""}:               "generic",
	}
	for in, want := range cases {
		if got := roleOf(in[0], in[1]); got != want {
			t.Errorf("roleOf%v = %q, want %q", in, got, want)
		}
	}
	if !secure("AXTextField", "AXSecureTextField") || secure("AXTextField", "") {
		t.Error("secure text fields are not told apart")
	}
	if !editable("AXTextArea", "") || editable("AXButton", "") {
		t.Error("editable fields are not told apart")
	}
}

func TestNameQueryQuotesTheName(t *testing.T) {
	cases := map[string]string{
		"Calculator":                        `kMDItemContentType == "com.apple.application-bundle" && (kMDItemDisplayName == "Calculator"c || kMDItemDisplayName == "Calculator.app"c)`,
		`Evil" || kMDItemDisplayName == "*`: `kMDItemContentType == "com.apple.application-bundle" && (kMDItemDisplayName == "Evil\" || kMDItemDisplayName == \"\*"c || kMDItemDisplayName == "Evil\" || kMDItemDisplayName == \"\*.app"c)`,
	}
	for name, want := range cases {
		if got := nameQuery(name); got != want {
			t.Errorf("nameQuery(%q) =\n%s\nwant\n%s", name, got, want)
		}
	}
	if appName("Calculator.app") != "Calculator" {
		t.Error("the .app extension is kept")
	}
}

func TestLocatorRoundTrip(t *testing.T) {
	for _, path := range [][]int{{}, {0}, {3, 0, 12}} {
		got, ok := parsePath(locator(path))
		if !ok || !slices.Equal(got, path) {
			t.Errorf("%v → %q → %v, %v", path, locator(path), got, ok)
		}
	}
	for _, bad := range []string{"", "0.1", "ax:-1", "ax:1..2", "ax:01", "ax:1.x", ":1.0/org/a11y"} {
		if _, ok := parsePath(bad); ok {
			t.Errorf("parsePath(%q) accepted a malformed locator", bad)
		}
	}
	parent := []int{1, 2}
	a, b := child(parent, 3), child(parent, 4)
	if !slices.Equal(a, []int{1, 2, 3}) || !slices.Equal(b, []int{1, 2, 4}) {
		t.Errorf("children share their parent's path: %v %v", a, b)
	}
}

func TestMacOSVersions(t *testing.T) {
	cases := map[string]bool{"14.0": true, "14.4.1": true, "15.1": true, "26.0": true, "13.6.7": false, "": false, "x": false}
	for v, want := range cases {
		if got := macOSSupported(v); got != want {
			t.Errorf("macOSSupported(%q) = %v", v, got)
		}
	}
}
