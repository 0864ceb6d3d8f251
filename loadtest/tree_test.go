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
	if len(p.combos) != 1 || p.combos[0].ref != "e19" || !slices.Equal(names(p, p.combos[0].options), []string{"Canada", `Say "hi"`}) {
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
	room.parse("o1.2", "https://sim.localhost/form/1", b)
	p := room.parse("o1.3", "https://sim.localhost/p/2", []byte("- link \"Next\" [ref=e40]\n- heading \"Two\" [ref=e41]"))
	if p.id != "o1.3" || p.url != "https://sim.localhost/p/2" {
		t.Fatalf("id %q url %q, want the second page's", p.id, p.url)
	}
	if !slices.Equal(p.links, []string{"e40"}) || !slices.Equal(p.regions, []string{"e41"}) || !slices.Equal(p.any, []string{"e40", "e41"}) ||
		len(p.boxes)+len(p.checks)+len(p.buttons)+len(p.combos) != 0 || !slices.Equal(names(p, p.names), []string{"Next"}) {
		t.Fatalf("the second page kept refs of the first: %+v", *p)
	}
}

// names reads the names at spans of p.
func names(p *page, spans []span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, p.name(s))
	}
	return out
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

// A page keeps its own copy of the text it was read from: the buffer the
// next answer is decoded into may be written over while the agent still
// picks names from the page. Refs read the same whether or not they are
// among the refs made once.
func TestAPageOutlivesTheBufferItWasReadFrom(t *testing.T) {
	buf := []byte("- link \"Say \\\"hi\\\"\" [ref=e7]\n- combobox [ref=e012]\n  - option \"Canada\" [ref=e99999]\n- button \"Go\" [ref=e4096]")
	var room page
	p := room.parse("o1", "u", buf)
	for i := range buf {
		buf[i] = 'x'
	}
	if got := names(p, p.names); !slices.Equal(got, []string{`Say "hi"`}) {
		t.Fatalf("link names after the buffer changed: %q", got)
	}
	if len(p.combos) != 1 || p.combos[0].ref != "e012" || !slices.Equal(names(p, p.combos[0].options), []string{"Canada"}) {
		t.Fatalf("combos after the buffer changed: %+v", p.combos)
	}
	if !slices.Equal(p.any, []string{"e7", "e012", "e99999", "e4096"}) || !slices.Equal(p.buttons, []string{"e4096"}) {
		t.Fatalf("refs: %q, buttons %q", p.any, p.buttons)
	}
}
