package protocol_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/protocol"
)

var guard = protocol.Guard{App: "org.gnome.Calculator", Window: windowFP}

func element() *protocol.ElementTarget {
	return &protocol.ElementTarget{Ref: "ax12", Locator: ":1.0/org/x", Fingerprint: elemFP}
}

func TestRequestValidateAcceptsEachCall(t *testing.T) {
	cases := map[string]*protocol.Request{
		"observe":     {Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: "com.apple.calculator"}},
		"click ref":   {Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Element: element()}},
		"click pixel": {Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Point: &protocol.PointTarget{X: 120, Y: 180, Scale: 2, Screenshot: shotHash}}},
		"fill":        {Call: protocol.CallFill, Fill: &protocol.FillArgs{Guard: guard, Element: *element(), Value: "search text\nsecond line"}},
		"press char":  {Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guard, Key: "é"}},
		"press named": {Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guard, Key: "ArrowDown"}},
		"open id":     {Call: protocol.CallOpen, Open: &protocol.OpenArgs{ID: "com.apple.TextEdit"}},
		"open name":   {Call: protocol.CallOpen, Open: &protocol.OpenArgs{Name: "Voicito"}},
		"navigate":    {Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "com.google.Chrome", URL: "https://en.wikipedia.org/wiki/Go"}},
		"probe":       {Call: protocol.CallProbe},
		"find":        {Call: protocol.CallFind, Find: &protocol.FindArgs{Name: "Calculator"}},
		"request":     {Call: protocol.CallRequestPermissions},
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			r.V, r.TimeoutMS = protocol.Version, 5000
			b, err := protocol.EncodeRequest(r)
			if err != nil {
				t.Fatalf("a valid request was refused: %v", err)
			}
			if _, err := protocol.DecodeRequest(b); err != nil {
				t.Fatalf("the helper refused a valid request: %v", err)
			}
		})
	}
}

// TestRequestValidateRefuses covers what a helper must refuse before
// acting: each case names the code it must get.
func TestRequestValidateRefuses(t *testing.T) {
	cases := map[string]struct {
		r    protocol.Request
		code protocol.Code
	}{
		"old version":      {protocol.Request{V: 0, Call: protocol.CallProbe}, protocol.CodeUnsupportedVersion},
		"unknown call":     {protocol.Request{Call: "script"}, protocol.CodeBadRequest},
		"missing args":     {protocol.Request{Call: protocol.CallObserve}, protocol.CodeBadRequest},
		"other call args":  {protocol.Request{Call: protocol.CallObserve, Press: &protocol.PressArgs{Guard: guard, Key: "a"}}, protocol.CodeBadRequest},
		"probe with args":  {protocol.Request{Call: protocol.CallProbe, Open: &protocol.OpenArgs{ID: "a.b"}}, protocol.CodeBadRequest},
		"app id shape":     {protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: "../etc"}}, protocol.CodeBadRequest},
		"no window":        {protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: protocol.Guard{App: "a.b"}, Key: "a"}}, protocol.CodeBadRequest},
		"chord":            {protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guard, Key: "Control+a"}}, protocol.CodeKeyNotAllowed},
		"function key":     {protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guard, Key: "F5"}}, protocol.CodeKeyNotAllowed},
		"control char key": {protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guard, Key: "\x03"}}, protocol.CodeKeyNotAllowed},
		"two targets":      {protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Element: element(), Point: &protocol.PointTarget{Scale: 1, Screenshot: shotHash}}}, protocol.CodeBadRequest},
		"no target":        {protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard}}, protocol.CodeBadRequest},
		"ref shape":        {protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Element: &protocol.ElementTarget{Ref: "e12", Locator: "x", Fingerprint: elemFP}}}, protocol.CodeBadRequest},
		"negative pixel":   {protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Point: &protocol.PointTarget{X: -1, Scale: 1, Screenshot: shotHash}}}, protocol.CodeOutsideWindow},
		"pixel no hash":    {protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Point: &protocol.PointTarget{Scale: 1}}}, protocol.CodeBadRequest},
		"fill too long":    {protocol.Request{Call: protocol.CallFill, Fill: &protocol.FillArgs{Guard: guard, Element: *element(), Value: strings.Repeat("a", protocol.MaxFillRunes+1)}}, protocol.CodeBadRequest},
		"fill escape":      {protocol.Request{Call: protocol.CallFill, Fill: &protocol.FillArgs{Guard: guard, Element: *element(), Value: "a\x1b[2J"}}, protocol.CodeKeyNotAllowed},
		"open both":        {protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{ID: "a.b", Name: "B"}}, protocol.CodeBadRequest},
		"open neither":     {protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{}}, protocol.CodeBadRequest},
		"find no name":     {protocol.Request{Call: protocol.CallFind, Find: &protocol.FindArgs{}}, protocol.CodeBadRequest},
		"find with open":   {protocol.Request{Call: protocol.CallFind, Open: &protocol.OpenArgs{Name: "B"}}, protocol.CodeBadRequest},
		"file URL":         {protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "file:///etc/passwd"}}, protocol.CodeBadURL},
		"app URL scheme":   {protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "x-apple.systempreferences:com.apple.preference"}}, protocol.CodeBadURL},
		"javascript URL":   {protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "javascript:alert(1)"}}, protocol.CodeBadURL},
		"URL credentials":  {protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "https://a:b@example.com/"}}, protocol.CodeBadURL},
		"URL with space":   {protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "https://example.com/ --incognito"}}, protocol.CodeBadURL},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := c.r
			if r.V == 0 && name != "old version" {
				r.V = protocol.Version
			}
			r.TimeoutMS = 5000
			b, _ := json.Marshal(&r)
			_, err := protocol.DecodeRequest(b)
			if got := protocol.CodeOf(err); got != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
		})
	}
}

func TestDecodeRequestRefusesUnknownFields(t *testing.T) {
	_, err := protocol.DecodeRequest([]byte(`{"v":1,"call":"probe","timeout_ms":100,"script":"rm -rf /"}`))
	if protocol.CodeOf(err) != protocol.CodeBadRequest {
		t.Fatalf("got %v, want bad_request", err)
	}
}

func TestCleanMakesOneBoundedLine(t *testing.T) {
	cases := map[string]struct {
		in   string
		max  int
		want string
	}{
		"collapses": {"  a \n\t b  ", 10, "a b"},
		"controls":  {"a\x00b\x1bc", 10, "a b c"},
		"overrides": {"left\u202eright", 20, "left right"},
		"truncates": {"abcdefghij", 5, "abcd…"},
		"exact":     {"abcde", 5, "abcde"},
		"bad utf8":  {"a\xffb", 5, "a\ufffdb"},
		"empty":     {"   ", 5, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := protocol.Clean(c.in, c.max); got != c.want {
				t.Fatalf("Clean(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
			}
		})
	}
}
