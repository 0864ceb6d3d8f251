package loadtest

import (
	"os"
	"slices"
	"testing"
)

func TestParsePageReadsRefsByRole(t *testing.T) {
	b, err := os.ReadFile("testdata/tree/form.txt")
	if err != nil {
		t.Fatal(err)
	}
	p := parsePage("o1.2", "https://sim.localhost/form/1", string(b))
	want := map[string][]string{
		"links": {"e2", "e29"}, "boxes": {"e17", "e18"}, "checks": {"e24"}, "buttons": {"e25"},
	}
	got := map[string][]string{"links": p.links, "boxes": p.boxes, "checks": p.checks, "buttons": p.buttons}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("%s: got %v, want %v", k, got[k], w)
		}
	}
	if len(p.combos) != 1 || p.combos[0].ref != "e19" || !slices.Equal(p.combos[0].options, []string{"Canada", `Say "hi"`}) {
		t.Errorf("combos: got %+v", p.combos)
	}
	if len(p.any) != 15 {
		t.Errorf("%d refs in all, want 15", len(p.any))
	}
}

func FuzzParsePage(f *testing.F) {
	f.Add("- link \"a\" [ref=e1]\n- option \"b\" [ref=e2]")
	f.Add("- [ref=]\n-  \"\\")
	f.Fuzz(func(t *testing.T, text string) {
		p := parsePage("o", "u", text)
		for _, r := range p.any {
			if r == "" {
				t.Fatal("an empty ref was kept")
			}
		}
	})
}
