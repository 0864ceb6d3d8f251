package macos

import (
	"strconv"
	"strings"
)

// maxPathDepth bounds a locator's path.
const maxPathDepth = 128

// locator is an element's place in its window: the child index at each
// level down from the window element, such as "ax:0.3.2"; "ax:" alone is
// the window itself.
func locator(path []int) string {
	parts := make([]string, len(path))
	for i, n := range path {
		parts[i] = strconv.Itoa(n)
	}
	return "ax:" + strings.Join(parts, ".")
}

// parsePath reads a locator back.
func parsePath(s string) ([]int, bool) {
	rest, ok := strings.CutPrefix(s, "ax:")
	if !ok {
		return nil, false
	}
	if rest == "" {
		return []int{}, true
	}
	parts := strings.Split(rest, ".")
	if len(parts) > maxPathDepth {
		return nil, false
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 100_000 || strconv.Itoa(n) != p {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// child extends a path by one index, leaving the parent's path alone.
func child(path []int, i int) []int {
	out := make([]int, len(path), len(path)+1)
	copy(out, path)
	return append(out, i)
}

// macOSSupported reports whether a product version such as "14.4.1" is
// macOS 14 or newer.
func macOSSupported(version string) bool {
	major, _, _ := strings.Cut(version, ".")
	n, err := strconv.Atoi(major)
	return err == nil && n >= 14
}
