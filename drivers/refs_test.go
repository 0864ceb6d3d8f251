package drivers_test

import (
	"slices"
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
