package session

import (
	"strconv"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// BenchmarkTargets builds the targets list of a 150-ref observation in
// which a third of the labels repeat.
func BenchmarkTargets(b *testing.B) {
	var tree strings.Builder
	refs := map[string]drivers.Element{}
	for i := range 150 {
		r := "e" + strconv.Itoa(i+1)
		name := "Item " + strconv.Itoa(i)
		if i%3 == 0 {
			name = "Edit"
		}
		tree.WriteString("  - link \"" + name + "\" [ref=" + r + "] [cursor=pointer]:\n    - /url: /p/" + strconv.Itoa(i) + "\n")
		refs[r] = drivers.Element{Ref: r, Role: "link", Name: name}
	}
	t := tree.String()
	b.ReportAllocs()
	for b.Loop() {
		_ = targets(t, refs)
	}
}

// BenchmarkTargetsBound is the targets list of a 150-ref observation whose
// labels are each one element's, as in most trees: none.
func BenchmarkTargetsBound(b *testing.B) {
	var tree strings.Builder
	refs := map[string]drivers.Element{}
	for i := range 150 {
		r := "e" + strconv.Itoa(i+1)
		name := "Item " + strconv.Itoa(i)
		tree.WriteString("  - link \"" + name + "\" [ref=" + r + "] [cursor=pointer]:\n    - /url: /p/" + strconv.Itoa(i) + "\n")
		refs[r] = drivers.Element{Ref: r, Role: "link", Name: name}
	}
	t := tree.String()
	b.ReportAllocs()
	for b.Loop() {
		if targets(t, refs) != "" {
			b.Fatal("a bound tree listed targets")
		}
	}
}
