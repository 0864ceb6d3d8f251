package helper

import (
	"context"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Limits on reading a tree, beside the protocol's limits on what is kept.
const (
	maxVisited  = 5000 // elements read, kept or not
	maxChildren = 1000 // children read of one element
	maxRawDepth = 128  // nesting read, kept or not
)

// interactive roles are kept even without a name: they are what refs are for.
var interactive = map[string]bool{
	"button": true, "checkbox": true, "radio": true, "switch": true, "textbox": true,
	"combobox": true, "listbox": true, "option": true, "link": true, "menuitem": true,
	"tab": true, "treeitem": true, "slider": true, "spinbutton": true,
}

// walker reads a window's tree within the limits and keeps the nodes an
// agent can use: the window itself, interactive elements, and elements with
// a name or a value. Unnamed containers are left out and their children
// move up to the nearest kept ancestor.
type walker struct {
	ctx       context.Context
	window    string // the window's fingerprint
	nodes     []protocol.Node
	text      int
	visited   int
	truncated bool
}

// parent is what a node's nearest kept ancestor tells about it.
type parent struct {
	role string
	name string
}

func walkTree(ctx context.Context, root Element, window string) ([]protocol.Node, bool) {
	w := &walker{ctx: ctx, window: window}
	w.walk(root, 0, 0, parent{})
	return w.nodes, w.truncated
}

func (w *walker) walk(el Element, depth, raw int, up parent) {
	if w.visited >= maxVisited || len(w.nodes) >= protocol.MaxNodes || w.ctx.Err() != nil {
		w.truncated = true
		return
	}
	w.visited++
	info, err := el.Info(w.ctx)
	if err != nil || !info.Visible {
		return // gone while we read, or hidden: neither it nor its children show
	}
	n := node(el.Locator(), info, w.window)
	n.Depth = depth
	if keep(n, raw == 0, up) {
		n.Box, _ = el.Box(w.ctx) // an element with no box is still worth its ref
		if !w.add(n) {
			return
		}
		up, depth = parent{role: n.Role, name: n.Name}, depth+1
	}
	if raw >= maxRawDepth || depth > protocol.MaxDepth {
		w.truncated = true
		return
	}
	kids, err := el.Children(w.ctx)
	if err != nil {
		return
	}
	if len(kids) > maxChildren {
		kids, w.truncated = kids[:maxChildren], true
	}
	for _, k := range kids {
		w.walk(k, depth, raw+1, up)
	}
}

// add keeps n if the text budget allows.
func (w *walker) add(n protocol.Node) bool {
	size := len(n.Name) + len(n.Value)
	if w.text+size > protocol.MaxTextBytes || len(n.Locator) > protocol.MaxLocatorBytes {
		w.truncated = true
		return false
	}
	w.text += size
	n.Ref = "ax" + strconv.Itoa(len(w.nodes)+1)
	w.nodes = append(w.nodes, n)
	return true
}

func keep(n protocol.Node, root bool, up parent) bool {
	switch {
	case root || interactive[n.Role]:
		return true
	case n.Name == "" && n.Value == "":
		return false
	case n.Role == "text" && n.Value == "" && interactive[up.role] && strings.Contains(up.name, n.Name):
		return false // a button's label that only repeats the button's name
	}
	return true
}

// node is what an observation shows of an element: text cleaned and
// bounded, a secure field's value masked.
func node(locator string, info ElementInfo, window string) protocol.Node {
	role, name := identity(info)
	n := protocol.Node{Role: role, Name: name, Secure: info.Secure, Locator: locator,
		Fingerprint: ElementFingerprint(window, locator, role, name)}
	if !info.Secure {
		n.Value = protocol.Clean(info.Value, protocol.MaxValueRunes)
	}
	n.States = states(info)
	return n
}

// identity is the part of an element its fingerprint covers.
func identity(info ElementInfo) (role, name string) {
	role = info.Role
	if !protocol.Roles[role] {
		role = "generic"
	}
	return role, protocol.Clean(info.Name, protocol.MaxNameRunes)
}

func states(info ElementInfo) []protocol.State {
	var out []protocol.State
	seen := map[protocol.State]bool{}
	add := func(s protocol.State) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range info.States {
		add(s)
	}
	if info.Editable {
		add(protocol.StateEditable)
	}
	valid := out[:0]
	for _, s := range out {
		if knownState(s) {
			valid = append(valid, s)
		}
	}
	return valid
}

func knownState(s protocol.State) bool {
	switch s {
	case protocol.StateFocused, protocol.StateDisabled, protocol.StateChecked, protocol.StateSelected,
		protocol.StateExpanded, protocol.StateCollapsed, protocol.StatePressed, protocol.StateEditable:
		return true
	}
	return false
}
