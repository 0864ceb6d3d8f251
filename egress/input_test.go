package egress_test

import (
	"errors"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestCheckInputUnderAirGap(t *testing.T) {
	open, err := egress.NewPolicy(egress.Config{PreviewOrigins: []string{"http://127.0.0.1:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	gapped, err := egress.NewPolicy(egress.Config{AirGap: true, PreviewOrigins: []string{"http://127.0.0.1:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		pol  *egress.Policy
		page string
		code egress.Code
	}{
		"open web, air-gap off":   {open, "https://example.com/", ""},
		"open web, air-gap on":    {gapped, "https://example.com/", egress.CodeAirGap},
		"preview, air-gap on":     {gapped, "http://127.0.0.1:5173/app", ""},
		"other port, air-gap on":  {gapped, "http://127.0.0.1:5174/", egress.CodeAirGap},
		"blank page, air-gap on":  {gapped, "about:blank", ""},
		"hex spelling of preview": {gapped, "http://0x7f.1:5173/", egress.CodeAirGap},
	}
	for name, c := range cases {
		err := c.pol.CheckInput(c.page)
		var r *egress.Refusal
		got := egress.Code("")
		if errors.As(err, &r) {
			got = r.Code
		}
		if got != c.code {
			t.Errorf("%s: CheckInput(%q) = %v, want code %q", name, c.page, err, c.code)
		}
	}
}
