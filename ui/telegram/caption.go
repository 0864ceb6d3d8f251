package telegram

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/messages"
)

// Telegram's bounds, in the UTF-16 units it counts.
const (
	maxCaption = 1024
	maxTitle   = 200
)

// caption is a step's photo caption: the page's title, the step in words,
// "Step n of max", the failure when it failed, and the Take over line when
// the link cannot be a button. It fits Telegram's 1,024 characters: the
// title and the failure give way first.
func caption(s *messages.StepTaken, localLink string) string {
	title := clipUnits(pageName(s), maxTitle)
	words := clipUnits(s.Words, maxTitle)
	step := fmt.Sprintf("Step %d of %d", s.StepsUsed, s.StepsMax)
	lines := []string{title, words, step}
	if localLink != "" {
		lines = append(lines, "Take over: open "+localLink+" on the computer buddi runs on.")
	}
	if s.Code != "" {
		used := units(strings.Join(lines, "\n")) + 1
		lines = append(lines, clipUnits("Failed: "+failureOf(s), maxCaption-used))
	}
	return clipUnits(strings.Join(lines, "\n"), maxCaption)
}

// wordsOnly reports a step whose picture may not leave: the caption's
// lines and why there is no photo.
func wordsOnly(s *messages.StepTaken, why, localLink string) string {
	return caption(s, localLink) + "\nNo photo: " + why
}

// pageName is the page's title, else its host, else a placeholder.
func pageName(s *messages.StepTaken) string {
	if t := strings.TrimSpace(s.Title); t != "" {
		return t
	}
	if u, err := url.Parse(s.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return "(no page)"
}

func failureOf(s *messages.StepTaken) string {
	if s.Reason != "" {
		return s.Reason
	}
	return string(s.Code)
}

// units is s's length as Telegram counts it.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

// clipUnits cuts s to at most n UTF-16 units, ending with "…" when cut.
func clipUnits(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if units(s) <= n {
		return s
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if used+w > n-1 {
			break
		}
		b.WriteRune(r)
		used += w
	}
	return b.String() + "…"
}

// clipRunes cuts s to at most n characters.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
