package messages_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestAgentTextRefusesControlsAndBidi(t *testing.T) {
	refused := map[string]string{
		"escape in a URL":        `{"action":"navigate","url":"https://example.com/\u001b[2J"}`,
		"OSC in find text":       `{"action":"find","text":"a\u001b]52;c;eA==\u0007"}`,
		"newline in a key":       `{"action":"press","observation":"o1.1","key":"\n"}`,
		"RLO in a wait":          `{"action":"wait_for","wait":{"text":"\u202egnp.exe"}}`,
		"isolate in a value":     `{"action":"fill","observation":"o1.1","target":{"ref":"e1"},"value":"a\u2066b"}`,
		"C1 in a select value":   `{"action":"select","observation":"o1.1","target":{"ref":"e1"},"values":["x\u009by"]}`,
		"escape in a script url": `{"action":"script","steps":[{"action":"navigate","url":"https://example.com/\u001b"}]}`,
	}
	for name, in := range refused {
		if _, e := messages.DecodeAct([]byte(in)); e == nil || e.Code != messages.CodeBadInput {
			t.Errorf("%s: got %v, want bad_input", name, e)
		}
	}
	accepted := map[string]string{
		"lines in a value":   `{"action":"fill","observation":"o1.1","target":{"ref":"e1"},"value":"line one\nline two\tend"}`,
		"right-to-left text": `{"action":"fill","observation":"o1.1","target":{"ref":"e1"},"value":"שלום עולם"}`,
		"a mark in find":     `{"action":"find","text":"abc\u200f"}`,
	}
	for name, in := range accepted {
		if _, e := messages.DecodeAct([]byte(in)); e != nil {
			t.Errorf("%s: refused: %v", name, e)
		}
	}
	for _, d := range []string{"read\nthe page", "x\u001b[1Ay", "\u202etxt"} {
		raw, _ := json.Marshal(map[string]string{"description": d})
		if _, e := messages.DecodeTask(raw); e == nil || !strings.Contains(e.Message, "U+") {
			t.Errorf("description %q: got %v, want a sentence naming the character", d, e)
		}
	}
}

func FuzzDecodeTask(f *testing.F) {
	for _, s := range []string{`{"description":"find the hours"}`, `{"description":"x","steps":3,"minutes":2}`,
		`{"description":"a\u001b]52;c;eA==\u0007"}`, `{"description":"\u202e"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, e := messages.DecodeTask(b)
		if e != nil {
			if e.Code != messages.CodeBadInput || e.Message == "" {
				t.Fatalf("DecodeTask(%q) failed without a bad_input sentence: %v", b, e)
			}
			return
		}
		if strings.ContainsFunc(in.Description, func(r rune) bool { return messages.UnsafeRune(r, false) }) {
			t.Fatalf("DecodeTask(%q) accepted a description with a control character", b)
		}
		if steps, life := in.Budget(); steps < 0 || steps > messages.MaxSteps || life < 0 || life > messages.MaxLifetime {
			t.Fatalf("budget out of bounds: %d %s", steps, life)
		}
	})
}
