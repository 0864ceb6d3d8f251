package linux

import (
	"errors"
	"strings"
)

// execArgs splits a desktop entry's Exec value into a program and its
// arguments, as the Desktop Entry Specification says: string escapes
// first, then words separated by spaces, double-quoted words with \" \` \$
// and \\ inside, and field codes expanded. %u, %U, %f and %F become url
// when one is given (once: a browser gets one URL) and vanish otherwise;
// the other field codes vanish; %% is a percent sign. It never involves a
// shell.
func execArgs(value, url string) ([]string, bool, error) {
	words, err := splitExec(unescape(value))
	if err != nil {
		return nil, false, err
	}
	var out []string
	used := false
	for _, w := range words {
		switch w {
		case "%u", "%U", "%f", "%F":
			if url != "" && !used {
				out = append(out, url)
				used = true
			}
			continue
		case "%i", "%c", "%k", "%d", "%D", "%n", "%N", "%v", "%m":
			continue
		}
		if strings.Contains(w, "%") {
			w = expandPercents(w)
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return nil, false, errors.New("the Exec line names no program")
	}
	return out, used, nil
}

// expandPercents turns %% into % and drops field codes inside a word.
func expandPercents(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] != '%' || i+1 == len(w) {
			b.WriteByte(w[i])
			continue
		}
		i++
		if w[i] == '%' {
			b.WriteByte('%')
		}
	}
	return b.String()
}

func splitExec(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\\' && i+1 < len(s) && strings.IndexByte("\"`$\\", s[i+1]) >= 0:
			i++
			cur.WriteByte(s[i])
		case c == '"':
			quoted, inWord = !quoted, true
		case !quoted && c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New("the Exec line has an unclosed quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
