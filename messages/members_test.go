package messages_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestMembersSplitsAnObjectAsItWasSent(t *testing.T) {
	for name, tc := range map[string]struct {
		raw  string
		want []string // key, value, key, value…; nil when Members leaves it
	}{
		"empty":          {`{}`, []string{}},
		"spaced":         {" { \"a\" : 1 , \"b\" : [ 2, {\"c\": null} ] } \n", []string{"a", "1", "b", `[ 2, {"c": null} ]`}},
		"strings":        {`{"text":"x \"y\" \u003c","ok":true}`, []string{"text", `"x \"y\" \u003c"`, "ok", "true"}},
		"not an object":  {`[1]`, nil},
		"two objects":    {`{}{}`, nil},
		"key twice":      {`{"a":1,"a":2}`, nil},
		"escaped key":    {`{"\u0061":1}`, nil},
		"unclosed":       {`{"a":"b}`, nil},
		"bad literal":    {`{"a":tru}`, nil},
		"control in str": {"{\"a\":\"\x01\"}", nil},
		"trailing comma": {`{"a":1,}`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			got, ok := messages.Members([]byte(tc.raw))
			if tc.want == nil {
				if ok {
					t.Fatalf("took %q: %q", tc.raw, got)
				}
				return
			}
			if !ok || len(got)*2 != len(tc.want) {
				t.Fatalf("Members(%q) = %q, %v; want %q", tc.raw, got, ok, tc.want)
			}
			for i, m := range got {
				if m.Key != tc.want[2*i] || string(m.Value) != tc.want[2*i+1] {
					t.Errorf("member %d = %q: %q, want %q: %q", i, m.Key, m.Value, tc.want[2*i], tc.want[2*i+1])
				}
			}
		})
	}
}

func TestStringValue(t *testing.T) {
	for raw, want := range map[string]string{`"plain"`: "plain", `"a\nb \u00e9 \""`: "a\nb é \"", `""`: ""} {
		if got, ok := messages.StringValue([]byte(raw)); !ok || got != want {
			t.Errorf("StringValue(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`3`, `"open`, `"x" `, `"\ud83d\ude00"`} {
		if got, ok := messages.StringValue([]byte(raw)); ok {
			t.Errorf("StringValue(%s) took it: %q", raw, got)
		}
	}
}
