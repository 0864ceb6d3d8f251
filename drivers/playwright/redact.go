package playwright

import (
	"regexp"
	"strings"
)

// refPattern finds refs in a tree; refs in frames carry an f<n> prefix.
var refPattern = regexp.MustCompile(`\[ref=((?:f\d+)?e\d+)\]`)

// attrPattern is one more [key] or [key=value] after a ref.
var attrPattern = regexp.MustCompile(`^ \[[a-z]+(?:=[^\]\n]*)?\]`)

// refsIn lists the refs of a tree in order, once each.
func refsIn(tree string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range refPattern.FindAllStringSubmatch(tree, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// redactPasswords removes the value the snapshot prints for a password
// input, inline after its ref or as a text child below it; secret says
// which refs are password inputs.
func redactPasswords(tree string, secret func(ref string) bool) string {
	lines := strings.Split(tree, "\n")
	for i := 0; i < len(lines); i++ {
		m := refPattern.FindStringSubmatchIndex(lines[i])
		if m == nil || !secret(lines[i][m[2]:m[3]]) {
			continue
		}
		end := m[1]
		for a := attrPattern.FindString(lines[i][end:]); a != ""; a = attrPattern.FindString(lines[i][end:]) {
			end += len(a)
		}
		rest := lines[i][end:]
		if strings.HasPrefix(rest, ":") && strings.TrimSpace(rest[1:]) != "" {
			lines[i] = lines[i][:end] + `: "(password hidden)"`
			continue
		}
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
		for j := i + 1; j < len(lines); j++ {
			child := strings.TrimLeft(lines[j], " ")
			if len(lines[j])-len(child) <= indent {
				break
			}
			if !strings.HasPrefix(child, "- /") {
				lines[j] = lines[j][:len(lines[j])-len(child)] + `- text: "(password hidden)"`
			}
		}
	}
	return strings.Join(lines, "\n")
}
