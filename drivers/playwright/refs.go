package playwright

import "regexp"

// refPattern finds refs in a tree.
var refPattern = regexp.MustCompile(`\[ref=(e\d+)\]`)

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
