package messages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func TestActionTableIsWhole(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range messages.Actions() {
		switch {
		case a.Name == "" || seen[a.Name]:
			t.Errorf("action %q is unnamed or named twice", a.Name)
		case a.Deadline <= 0:
			t.Errorf("%s has no deadline", a.Name)
		case a.Doc == "":
			t.Errorf("%s has no description for agents", a.Name)
		case a.Past == "":
			t.Errorf("%s has no words for the owner following along", a.Name)
		case a.Reads && (a.Mutating || a.ChangesPage):
			t.Errorf("%s only reads, yet puts input on the page or changes it", a.Name)
		case a.Scriptable && a.Run != messages.RunDo:
			t.Errorf("%s is scriptable but is not a single driver call", a.Name)
		case a.Mutating && a.Run != messages.RunDo:
			t.Errorf("%s puts input on the page but is not a driver call", a.Name)
		}
		seen[a.Name] = true
		if spec, ok := messages.ActionOf(a.Name); !ok || spec != a {
			t.Errorf("ActionOf(%s) does not find its row", a.Name)
		}
	}
	if _, ok := messages.ActionOf("teleport"); ok {
		t.Error("ActionOf found an action that is not in the table")
	}
}

func TestTextsAgentsReadComeFromTheTable(t *testing.T) {
	_, e := messages.DecodeAct([]byte(`{"action":"teleport"}`))
	for _, a := range messages.Actions() {
		if e == nil || !strings.Contains(e.Message, a.Name) {
			t.Errorf("the unknown-action sentence leaves out %s: %v", a.Name, e)
		}
	}
}
