package mcp

import "sync"

// maxMoves bounds the moves the bridge remembers; past it, it forgets them
// all, and the daemon's refusal of an old id names the new one instead.
const maxMoves = 4096

// moves are the conversations the bridge's agents moved (browser_task with
// moveTo): a later call that still names the old id, from the fixed
// configuration, a header, an argument or the MCP session's own id, goes
// to the new one. Keyed by token and old id, so one agent's move never
// redirects another's calls.
type moves struct {
	mu sync.Mutex
	to map[string]string
}

func moveKey(token, conv string) string { return token + "\x00" + conv }

// follow is where conv lives now for the agent holding token.
func (m *moves) follow(token, conv string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if to, ok := m.to[moveKey(token, conv)]; ok {
		return to
	}
	return conv
}

// note records that the agent holding token moved from to to; an id that
// had moved to from follows it.
func (m *moves) note(token, from, to string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.to == nil || len(m.to) >= maxMoves {
		m.to = map[string]string{}
	}
	for k, v := range m.to {
		if v == from {
			m.to[k] = to
		}
	}
	m.to[moveKey(token, from)] = to
}
