package egress

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed neverautomate.txt
var neverAutomateText string

// neverAutomateList is the embedded list, parsed once at start-up.
var neverAutomateList = mustParseList(neverAutomateText)

func mustParseList(text string) map[string]bool {
	m := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if h, err := parseHost(line); err != nil || h.isIP() || h.name != line || !strings.Contains(line, ".") {
			panic(fmt.Sprintf("egress: neverautomate.txt line %d: %q is not a lower-case domain", n+1, line))
		}
		m[line] = true
	}
	return m
}

// neverAutomate reports whether a host name (without its trailing dot) is
// at or under an entry of the never-automate list, and which entry.
func neverAutomate(name string) (string, bool) {
	for d := name; d != ""; {
		if neverAutomateList[d] {
			return d, true
		}
		_, rest, ok := strings.Cut(d, ".")
		if !ok {
			break
		}
		d = rest
	}
	return "", false
}
