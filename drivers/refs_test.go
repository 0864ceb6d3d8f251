package drivers_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

func TestRefsInListsEachRefOnceInTreeOrder(t *testing.T) {
	tree := "- main [ref=e10]:\n  - link \"a [ref=e9x]\" [ref=e3]\n  - link \"b\" [ref=e10] [ref=e]\n- text: [ref=e7] and [ref=e12"
	if got := drivers.RefsIn(tree); !slices.Equal(got, []string{"e10", "e3", "e7"}) {
		t.Fatalf("RefsIn = %q", got)
	}
	if got := drivers.RefsIn(""); len(got) != 0 {
		t.Fatalf("RefsIn of nothing = %q", got)
	}
}

func TestRefsInReadsAccessibilityRefs(t *testing.T) {
	tree := "- window \"Calculator\" [ref=ax1]\n  - button \"7\" [ref=ax12]\n  - button \"x\" [ref=ax] [ref=axe3] [ref=ax12]"
	if got := drivers.RefsIn(tree); !slices.Equal(got, []string{"ax1", "ax12"}) {
		t.Fatalf("RefsIn = %q", got)
	}
}

// TestAnObservationsElementsLiveInItsMap: an observation's refs map holds
// its elements in its own storage, so a page of 200 refs costs a few
// allocations, not one per ref (a value above 128 bytes would be stored
// apart, entry by entry).
func TestAnObservationsElementsLiveInItsMap(t *testing.T) {
	refs := make([]string, 200)
	for i := range refs {
		refs[i] = "e" + strconv.Itoa(i+1)
	}
	el := drivers.Element{Role: "link", Name: "Read more", Fingerprint: "https://example.org/#e1#a"}
	n := testing.AllocsPerRun(20, func() {
		m := make(map[string]drivers.Element, len(refs))
		for _, r := range refs {
			el.Ref = r
			m[r] = el
		}
	})
	if n > 20 {
		t.Fatalf("a map of %d elements took %.0f allocations; want its storage alone (at most 20)", len(refs), n)
	}
}
