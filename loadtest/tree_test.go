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

// A page read into the room of an earlier one holds only its own refs:
// the lists are reused, not added to.
func TestParseIntoUsedRoomKeepsNothingOfTheLastPage(t *testing.T) {
	b, err := os.ReadFile("testdata/tree/form.txt")
	if err != nil {
		t.Fatal(err)
	}
	var room page
	room.parse("o1.2", "https://sim.localhost/form/1", string(b))
	p := room.parse("o1.3", "https://sim.localhost/p/2", "- link \"Next\" [ref=e40]\n- heading \"Two\" [ref=e41]")
	if p.id != "o1.3" || p.url != "https://sim.localhost/p/2" {
		t.Fatalf("id %q url %q, want the second page's", p.id, p.url)
	}
	if !slices.Equal(p.links, []string{"e40"}) || !slices.Equal(p.regions, []string{"e41"}) || !slices.Equal(p.any, []string{"e40", "e41"}) ||
		len(p.boxes)+len(p.checks)+len(p.buttons)+len(p.combos) != 0 || !slices.Equal(p.names, []string{"Next"}) {
		t.Fatalf("the second page kept refs of the first: %+v", *p)
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
