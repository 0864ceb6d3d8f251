package linux

import "github.com/buddi-dev/buddi/native/protocol"

// AT-SPI state bits (AtspiStateType).
const (
	stateActive     = 1
	stateChecked    = 4
	stateCollapsed  = 5
	stateDefunct    = 6
	stateEditable   = 7
	stateExpandable = 9
	stateExpanded   = 10
	stateFocused    = 12
	statePressed    = 20
	stateSelected   = 23
	stateSensitive  = 24
	stateShowing    = 25
	stateVisible    = 30
)

// states is an AT-SPI state set.
type states uint64

func statesOf(words []uint32) states {
	var s states
	for i, w := range words[:min(len(words), 2)] {
		s |= states(w) << (32 * i)
	}
	return s
}

func (s states) has(bit uint) bool { return s&(1<<bit) != 0 }

// visible reports whether the element is shown: GTK 4 sets only VISIBLE,
// other toolkits also SHOWING.
func (s states) visible() bool { return s.has(stateVisible) && !s.has(stateDefunct) }

// flags are the states an observation shows.
func (s states) flags() []protocol.State {
	var out []protocol.State
	add := func(ok bool, st protocol.State) {
		if ok {
			out = append(out, st)
		}
	}
	add(s.has(stateFocused), protocol.StateFocused)
	add(!s.has(stateSensitive), protocol.StateDisabled)
	add(s.has(stateChecked), protocol.StateChecked)
	add(s.has(stateSelected), protocol.StateSelected)
	add(s.has(stateExpanded), protocol.StateExpanded)
	add(s.has(stateCollapsed) || (s.has(stateExpandable) && !s.has(stateExpanded)), protocol.StateCollapsed)
	add(s.has(statePressed), protocol.StatePressed)
	return out
}
