package session

import (
	"math/rand/v2"
	"strconv"
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
	refs := map[string]drivers.Element{
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
		p.open("", "page", 0)
		p.tabs(c.tabs, c.always)
		if got := strings.Contains(p.b().String(), "- t1 (active) \"Only\""); got != c.listed {
			t.Errorf("%d tabs, always=%v: listed=%v\n%s", len(c.tabs), c.always, got, p.b().String())
		}
	}
}

// A tab's line is its id, whether it is the active one, its title quoted
// as Go quotes a string (a quote, a backslash or a character that is not
// printed escaped) and its address.
func TestATabsLineQuotesItsTitle(t *testing.T) {
	var p pageText
	p.open("", "page", 0)
	p.tabs([]messages.Tab{
		{ID: "t1", Title: `Say "hi" \ über`, URL: "https://a.example/x?q=1", Active: true},
		{ID: "t2", Title: "bell\a", URL: "about:blank"},
	}, false)
	want := "Tabs:\n" +
		`- t1 (active) "Say \"hi\" \\ über" https://a.example/x?q=1` + "\n" +
		`- t2 "bell\a" about:blank` + "\n"
	if got := p.b().String()[strings.Index(p.b().String(), "Tabs:"):]; got != want {
		t.Fatalf("tabs written as\n%s\nwant\n%s", got, want)
	}
}

// The targets list is the same whether the tree binds every ref (read off
// the tree in place) or not (the full list): a table of trees against the
// list built from drivers.RefsIn with no shortcut.
func TestTargetsAreTheFullListForEveryTree(t *testing.T) {
	refs := map[string]drivers.Element{
		"e1": {Role: "link", Name: "Home"}, "e2": {Role: "link", Name: "Edit"},
		"e3": {Role: "link", Name: "Edit"}, "e4": {Role: "button", Name: "Edit"},
		"e5": {Role: "textbox", Name: "Card", Frame: 1}, "e6": {Role: "generic"},
		"e7": {Role: "generic"}, "ax8": {Role: "link", Name: "Home"}, "x9": {Role: "link", Name: "Home"},
	}
	cases := map[string]string{
		"none":                 "- text\n",
		"bound":                "- link \"Home\" [ref=e1]\n- link \"Edit\" [ref=e2]\n- button \"Edit\" [ref=e4]\n",
		"repeated label":       "- link \"Edit\" [ref=e2]\n- link \"Edit\" [ref=e3]\n",
		"a ref named twice":    "- link \"Edit\" [ref=e2]\n- link \"Edit\" [ref=e2]\n",
		"in a frame":           "- link \"Home\" [ref=e1]\n- textbox \"Card\" [ref=e5]\n",
		"nameless repeated":    "- generic [ref=e6]\n- generic [ref=e7]\n",
		"ax ref repeats":       "- link \"Home\" [ref=e1]\n- link \"Home\" [ref=ax8]\n",
		"not a ref's shape":    "- link \"Home\" [ref=e1]\n- link \"Home\" [ref=x9]\n",
		"unknown ref":          "- link \"Home\" [ref=e1]\n- link \"Home\" [ref=e99]\n",
		"mark without a close": "- link \"Home\" [ref=e1]\n- [ref=e3",
		"mark at the end":      "- link \"Home\" [ref=e1] [ref=",
	}
	for name, tree := range cases {
		if got, want := targets(tree, refs), fullTargets(tree, refs); got != want {
			t.Errorf("%s: targets =\n%q\nwant\n%q", name, got, want)
		}
	}
}

// targets is the list pageText writes for tree, without its label.
func targets(tree string, refs map[string]drivers.Element) string {
	var p pageText
	p.open("", "page", 0)
	defer p.blk.Drop()
	p.targets(tree, refs)
	s := p.b().String()
	i := strings.Index(s, "Targets:\n")
	if i < 0 {
		return ""
	}
	return strings.Clone(s[i+len("Targets:\n"):])
}

// On random trees of refs that repeat, share labels, sit in frames, are
// unknown or malformed, the list written is the full list.
func TestTargetsAreTheFullListForRandomTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	roles := []string{"link", "button", "", "textbox"}
	names := []string{"Edit", "Home", "", "Say \"hi\"", "two  words\n", "Café"}
	for range 3000 {
		refs := map[string]drivers.Element{}
		for i := range 12 {
			if r.IntN(6) == 0 {
				continue // a ref the tree names but the map does not
			}
			e := drivers.Element{Role: roles[r.IntN(len(roles))], Name: names[r.IntN(len(names))]}
			if r.IntN(8) == 0 {
				e.Frame = 1 + r.IntN(3)
			}
			refs["e"+strconv.Itoa(i)] = e
		}
		var tree strings.Builder
		for range r.IntN(14) {
			switch r.IntN(10) {
			case 0:
				tree.WriteString("- text [ref=x1]\n")
			case 1:
				tree.WriteString("- [ref=e3")
			default:
				tree.WriteString("- link \"x\" [ref=e" + strconv.Itoa(r.IntN(12)) + "]\n")
			}
		}
		if got, want := targets(tree.String(), refs), fullTargets(tree.String(), refs); got != want {
			t.Fatalf("tree %q: targets =\n%q\nwant\n%q", tree.String(), got, want)
		}
	}
}

// fullTargets is the targets list built from every ref of the tree.
func fullTargets(tree string, refs map[string]drivers.Element) string {
	type key struct{ role, name string }
	order := drivers.RefsIn(tree)
	same := map[key][]string{}
	var keys []key
	for _, r := range order {
		if t, ok := refs[r]; ok && t.Name != "" && t.Frame == 0 {
			k := key{t.Role, t.Name}
			if len(same[k]) == 0 {
				keys = append(keys, k)
			}
			same[k] = append(same[k], r)
		}
	}
	var b strings.Builder
	for _, k := range keys {
		if rs := same[k]; len(rs) > 1 {
			b.WriteString("- " + label(drivers.Element{Role: k.role, Name: k.name}) + ": " + strings.Join(rs, ", ") + "\n")
		}
	}
	for _, r := range order {
		if t, ok := refs[r]; ok && t.Frame > 0 {
			b.WriteString("- " + r + " " + label(t) + " [frame=" + strconv.Itoa(t.Frame) + "]\n")
		}
	}
	return b.String()
}

// label is an element as the targets list names it.
func label(t drivers.Element) string {
	role := t.Role
	if role == "" {
		role = "text"
	}
	if t.Name == "" {
		return role
	}
	return role + " " + strconv.Quote(oneLine(t.Name))
}

// A title or name reaches the agent on one line, its words one space
// apart, whatever spaces it had.
func TestOneLineJoinsWordsWithOneSpace(t *testing.T) {
	for _, s := range []string{"", "Inbox", "Inbox (3) - Mail", " lead", "trail ", "two  spaces",
		"tab\there", "line\nbreak", "cr\rlf", "\v\f", "nbsp\u00a0here", "em\u2003space", "Café au lait", " ", "a b c"} {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

// distinct says yes only when no two elements share a role and name and
// none is in a frame, on maps small and past the table's first growth, and
// its pooled table comes back empty for the next map.
func TestDistinctSaysWhetherAnyElementSharesItsRoleAndName(t *testing.T) {
	many := func(n int, last drivers.Element) map[string]drivers.Element {
		refs := map[string]drivers.Element{}
		for i := range n {
			refs["e"+strconv.Itoa(i)] = drivers.Element{Role: "link", Name: "Item " + strconv.Itoa(i)}
		}
		refs["last"] = last
		return refs
	}
	for _, c := range []struct {
		name string
		refs map[string]drivers.Element
		want bool
	}{
		{"none", nil, true},
		{"each its own", many(3, drivers.Element{Role: "button", Name: "Item 1"}), true},
		{"a shared role and name", many(3, drivers.Element{Role: "link", Name: "Item 1"}), false},
		{"nameless alike", map[string]drivers.Element{"e1": {Role: "generic"}, "e2": {Role: "generic"}}, true},
		{"in a frame", many(3, drivers.Element{Role: "textbox", Name: "Card", Frame: 1}), false},
		{"5,000 each its own", many(5000, drivers.Element{Role: "link", Name: "Item 5000"}), true},
		{"5,000 and one shared", many(5000, drivers.Element{Role: "link", Name: "Item 4999"}), false},
		{"each its own again", many(3, drivers.Element{Role: "link", Name: "Item 4999"}), true},
	} {
		if got := distinct(c.refs); got != c.want {
			t.Errorf("%s: distinct = %v, want %v", c.name, got, c.want)
		}
	}
}
