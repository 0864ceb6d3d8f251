package messages

import (
	"fmt"
	"unicode/utf8"
)

// maxWordsPart bounds each quoted part of a step in words.
const maxWordsPart = 80

// InWords says what an act did, for the owner following along (a photo's
// caption on Telegram): the action's Past phrase from the table, and what it
// acted on. target is the element in words ("link “Sign in”"), "" when the
// act had none. What was typed is never repeated: it may be a secret.
func InWords(in *ActInput, target string) string {
	spec := Spec(in.Action)
	past := spec.Past
	if past == "" {
		past = "Did " + quote(in.Action)
	}
	switch in.Action {
	case "navigate":
		return past + " " + clipWords(in.URL)
	case "find":
		return past + " for " + quote(firstOf(in.Text, in.Name, in.Role))
	case "press":
		if utf8.RuneCountInString(in.Key) > 1 {
			return past + " " + clipWords(in.Key)
		}
		return past + " a character key"
	case "scroll":
		if target == "" {
			return fmt.Sprintf("%s by %d px", past, in.DeltaY)
		}
		return past + " to " + target
	case "tab":
		return tabWords(in.Tab)
	case "script":
		return fmt.Sprintf("%s of %d steps", past, len(in.Steps))
	case "secret_fill": // the name, never the value
		return past + " " + firstOf(target, "a field") + " (" + quote(in.Secret) + ")"
	}
	if in.Action == "observe" && in.Within != "" {
		return past + " (one region)"
	}
	if spec.Mutating && target != "" {
		return past + " " + target
	}
	return past
}

// TargetWords is an observed element in words: its role and quoted name,
// or its ref when it has neither.
func TargetWords(ref, role, name string) string {
	switch {
	case role != "" && name != "":
		return role + " " + quote(name)
	case name != "":
		return quote(name)
	case role != "":
		return role + " " + ref
	}
	return ref
}

func tabWords(op string) string {
	switch op {
	case "new":
		return "Opened a new tab"
	case "switch":
		return "Switched tabs"
	case "close":
		return "Closed a tab"
	}
	return "Listed the tabs"
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func quote(s string) string { return "“" + clipWords(s) + "”" }

func clipWords(s string) string {
	if utf8.RuneCountInString(s) <= maxWordsPart {
		return s
	}
	r := []rune(s)
	return string(r[:maxWordsPart-1]) + "…"
}

// ResumedWords is what every surface says once a Stop is lifted: what the
// agents may do next, as their next act answers it.
const ResumedWords = "Browser access is resumed. Agents with a task may go on: their tabs were closed, so each starts with a new observation or a navigation (an action on an older observation is refused); nothing they were doing is replayed. Send an agent a message to carry on."

// StoppedWords is what every surface says once a Stop holds: n sessions
// dropped their work and closed their tabs; resume is how the owner lifts
// it there.
func StoppedWords(n int, resume string) string {
	what := fmt.Sprintf("%d sessions dropped their work and closed their tabs", n)
	switch n {
	case 0:
		what = "no session was running"
	case 1:
		what = "1 session dropped its work and closed its tabs"
	}
	return fmt.Sprintf("All browser access is stopped: %s. It stays stopped, across restarts, until %s.", what, resume)
}
