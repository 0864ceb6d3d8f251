package session

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// The targets list spells out only what the tree's ref lines leave open:
// repeated labels, one line each with their refs in the tree's order, and
// elements in a frame.
func TestTargetsListRepeatedLabelsAndFramesOnly(t *testing.T) {
	tree := "- link \"Edit\" [ref=e3]\n- button \"Send\" [ref=e4]\n- link \"Edit\" [ref=e7]\n" +
		"- textbox \"Card\" [ref=e9]\n- link \"Edit\" [ref=e12]\n"
	refs := map[string]drivers.Target{
		"e3": {Role: "link", Name: "Edit"}, "e4": {Role: "button", Name: "Send"},
		"e7": {Role: "link", Name: "Edit"}, "e9": {Role: "textbox", Name: "Card", Frame: 2},
		"e12": {Role: "link", Name: "Edit"},
	}
	want := "- link \"Edit\": e3, e7, e12\n- e9 textbox \"Card\" [frame=2]\n"
	if got := targets(tree, refs); got != want {
		t.Fatalf("targets =\n%s\nwant\n%s", got, want)
	}
	if got := targets("- button \"Send\" [ref=e4]\n", refs); got != "" {
		t.Fatalf("a tree with no repeated label lists %q", got)
	}
}

// A lone tab's title is already the title line: its tabs list is written
// only when asked for (the tab action) or when there are others.
func TestTabsAreListedWhenThereAreOthersOrWhenAsked(t *testing.T) {
	one := []messages.Tab{{ID: "t1", Title: "Only", Active: true}}
	two := append(one, messages.Tab{ID: "t2", Title: "Second"})
	for _, c := range []struct {
		tabs   []messages.Tab
		always bool
		listed bool
	}{{one, false, false}, {one, true, true}, {two, false, true}} {
		var p pageText
		p.tabs(c.tabs, c.always)
		if got := strings.Contains(p.b.String(), "- t1 (active) \"Only\""); got != c.listed {
			t.Errorf("%d tabs, always=%v: listed=%v\n%s", len(c.tabs), c.always, got, p.b.String())
		}
	}
}
