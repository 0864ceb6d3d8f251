package messages_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestDecodeAcceptsEveryAction(t *testing.T) {
	good := map[string]string{
		"observe":      `{"action":"observe","fullPage":true}`,
		"within":       `{"action":"observe","within":"e40"}`,
		"next part":    `{"action":"observe","fullPage":true,"after":"e412"}`,
		"region part":  `{"action":"observe","within":"e40","after":"e77"}`,
		"table rows":   `{"action":"observe","within":"e40","rows":"12-40"}`,
		"one row":      `{"action":"observe","within":"e40","rows":"7"}`,
		"find text":    `{"action":"find","text":"Next chapter"}`,
		"find role":    `{"action":"find","role":"link","name":"Method values","exact":true}`,
		"navigate":     `{"action":"navigate","url":"https://example.com/a?b=c"}`,
		"click":        `{"action":"click","observation":"o1.2","target":{"ref":"e12"}}`,
		"fill":         `{"action":"fill","observation":"o1.2","target":{"ref":"e3"},"value":"hello"}`,
		"select":       `{"action":"select","observation":"o1.2","target":{"ref":"e3"},"values":["Red"]}`,
		"press":        `{"action":"press","observation":"o1.2","key":"Enter"}`,
		"press char":   `{"action":"press","observation":"o1.2","key":"é"}`,
		"scroll":       `{"action":"scroll","observation":"o1.2","deltaY":400}`,
		"tab":          `{"action":"tab","tab":"switch","tabId":"t2"}`,
		"wait":         `{"action":"wait_for","wait":{"load":true},"timeoutMs":15000}`,
		"dom":          `{"action":"dom","maxChars":100}`,
		"script":       `{"action":"script","steps":[{"action":"navigate","url":"https://a.example/"},{"action":"dom"}]}`,
		"close":        `{"action":"close"}`,
		"back":         `{"action":"back"}`,
		"forward":      `{"action":"forward"}`,
		"hover":        `{"action":"hover","observation":"o1.2","target":{"ref":"e4"}}`,
		"submit":       `{"action":"submit","observation":"o1.2","target":{"ref":"e5"}}`,
		"console":      `{"action":"console"}`,
		"screenshot":   `{"action":"screenshot","fullRes":true}`,
		"open":         `{"action":"open","appId":"com.apple.calculator"}`,
		"open name":    `{"action":"open","app":"Calculator"}`,
		"ax ref":       `{"action":"click","observation":"o1.2","target":{"ref":"ax12"}}`,
		"pixel":        `{"action":"click","observation":"o1.2","target":{"x":120,"y":180}}`,
		"by role":      `{"action":"click","observation":"o1.2","target":{"by":"role","role":"button","name":"Send"}}`,
		"by link":      `{"action":"click","observation":"o1.2","target":{"by":"link","name":"Next page"}}`,
		"by label":     `{"action":"fill","observation":"o1.2","target":{"by":"label","name":"Email","frame":1},"value":"a@b.c"}`,
		"by ph":        `{"action":"fill","observation":"o1.2","target":{"by":"placeholder","name":"Search"},"value":"x"}`,
		"by text":      `{"action":"click","observation":"o1.2","target":{"by":"text","name":"Sign in"}}`,
		"wait ref":     `{"action":"wait_for","wait":{"ref":"e12"}}`,
		"secret_list":  `{"action":"secret_list"}`,
		"then observe": `{"action":"click","observation":"o1.2","target":{"ref":"e12"},"thenObserve":true}`,
		"go and see":   `{"action":"navigate","url":"https://example.com/","thenObserve":true}`,
		"secret_fill":  `{"action":"secret_fill","observation":"o1.2","target":{"ref":"e3"},"secret":"github-password"}`,
	}
	for name, in := range good {
		if _, e := messages.DecodeAct([]byte(in)); e != nil {
			t.Errorf("%s: %v", name, e)
		}
	}
	for _, a := range messages.Actions() {
		if !exampled(good, a.Name) {
			t.Errorf("the action table has %s, and this test has no input for it", a.Name)
		}
	}
}

func TestDecodeRefusesWithBadInput(t *testing.T) {
	bad := map[string]string{
		"empty":            ``,
		"not json":         `{"action":`,
		"trailing":         `{"action":"observe"} {"action":"observe"}`,
		"array":            `[]`,
		"unknown":          `{"action":"observe","x":1}`,
		"wrong type":       `{"action":"scroll","observation":"o","deltaY":"far"}`,
		"no target":        `{"action":"click","observation":"o1"}`,
		"selector as ref":  `{"action":"click","observation":"o1","target":{"ref":"button.submit"}}`,
		"relative url":     `{"action":"navigate","url":"/path"}`,
		"url source":       `{"action":"navigate","url":"https://a.example/","urlSource":"model"}`,
		"chord":            `{"action":"press","observation":"o","key":"Meta+Q"}`,
		"tab op":           `{"action":"tab","tab":"duplicate"}`,
		"switch no id":     `{"action":"tab","tab":"switch"}`,
		"wait none":        `{"action":"wait_for","wait":{}}`,
		"dom too long":     `{"action":"dom","maxChars":9000}`,
		"script too long":  `{"action":"script","steps":[{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"},{"action":"dom"}]}`,
		"script submit":    `{"action":"script","steps":[{"action":"submit","observation":"o","target":{"ref":"e1"}}]}`,
		"script nested":    `{"action":"script","steps":[{"action":"script","steps":[{"action":"dom"}]}]}`,
		"select no values": `{"action":"select","observation":"o","target":{"ref":"e1"}}`,
		"framed ref":       `{"action":"click","observation":"o1","target":{"ref":"f1e5"}}`,
		"after alone":      `{"action":"observe","after":"e12"}`,
		"within selector":  `{"action":"observe","within":"nav.sidebar"}`,
		"full and within":  `{"action":"observe","fullPage":true,"within":"e4"}`,
		"rows alone":       `{"action":"observe","rows":"1-5"}`,
		"rows backwards":   `{"action":"observe","within":"e4","rows":"five"}`,
		"rows open":        `{"action":"observe","within":"e4","rows":"5-"}`,
		"find nothing":     `{"action":"find"}`,
		"find in script":   `{"action":"script","steps":[{"action":"find","text":"x"}]}`,
		"open nothing":     `{"action":"open"}`,
		"open both":        `{"action":"open","appId":"a","app":"b"}`,
		"by nothing":       `{"action":"click","observation":"o1","target":{}}`,
		"by unknown":       `{"action":"click","observation":"o1","target":{"by":"xpath","name":"//a"}}`,
		"by role no role":  `{"action":"click","observation":"o1","target":{"by":"role","name":"Send"}}`,
		"by label no name": `{"action":"click","observation":"o1","target":{"by":"label"}}`,
		"ref and by":       `{"action":"click","observation":"o1","target":{"ref":"e1","by":"link","name":"x"}}`,
		"frame negative":   `{"action":"click","observation":"o1","target":{"ref":"e1","frame":-1}}`,
		"wait ref bad":     `{"action":"wait_for","wait":{"ref":"#id"}}`,
		"pixel fill":       `{"action":"fill","observation":"o1","target":{"x":1,"y":2},"value":"x"}`,
		"pixel half":       `{"action":"click","observation":"o1","target":{"x":1}}`,
		"pixel and ref":    `{"action":"click","observation":"o1","target":{"x":1,"y":2,"ref":"ax1"}}`,
		"pixel negative":   `{"action":"click","observation":"o1","target":{"x":-1,"y":2}}`,
		"pixel in script":  `{"action":"script","steps":[{"action":"click","observation":"o1","target":{"x":1,"y":2}}]}`,
		"wait two":         `{"action":"wait_for","wait":{"ref":"e1","load":true}}`,
		"script by":        `{"action":"script","steps":[{"action":"click","observation":"o1","target":{"by":"link","name":"x"}}]}`,
		"observe then":     `{"action":"observe","thenObserve":true}`,
		"find then":        `{"action":"find","text":"x","thenObserve":true}`,
		"dom then":         `{"action":"dom","thenObserve":true}`,
		"script then":      `{"action":"script","steps":[{"action":"navigate","url":"https://a.example/","thenObserve":true}]}`,
	}
	for name, in := range bad {
		_, e := messages.DecodeAct([]byte(in))
		if e == nil || e.Code != messages.CodeBadInput || e.Message == "" {
			t.Errorf("%s: got %v, want a bad_input sentence", name, e)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"action":"observe"}`, `{"action":"click","observation":"o1.1","target":{"ref":"e1"}}`,
		`{"action":"script","steps":[{"action":"navigate","url":"https://x.test/"}]}`, `{"action":"wait_for","wait":{"text":"x"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, e := messages.DecodeAct(b)
		if e != nil {
			if e.Code != messages.CodeBadInput || e.Message == "" {
				t.Fatalf("DecodeAct(%q) failed without a bad_input sentence: %v", b, e)
			}
			return
		}
		if in == nil || in.Action == "" {
			t.Fatalf("Decode(%q) accepted an input with no action", b)
		}
		if e := messages.ValidateAct(in, false); e != nil {
			t.Fatalf("an accepted input does not validate again: %v", e)
		}
	})
}

// exampled reports whether some input of good names action.
func exampled(good map[string]string, action string) bool {
	for _, in := range good {
		if strings.HasPrefix(in, `{"action":"`+action+`"`) {
			return true
		}
	}
	return false
}

// A field an agent put where browser.act has none is refused with where
// its value goes instead; any other unknown field with the general shape.
func TestAMisplacedFieldIsRefusedWithWhereItGoes(t *testing.T) {
	for in, want := range map[string]string{
		`{"action":"fill","ref":"e10","value":"x"}`:      `"target": {"ref": "e12"}`,
		`{"action":"click","element":"e3"}`:              `"target": {"ref": "e12"}`,
		`{"action":"click","observationId":"o1"}`:        `as "observation"`,
		`{"action":"observe","conversation":"c1"}`:       `beside "input"`,
		`{"input":{"action":"observe"}}`:                 `the action's fields themselves`,
		`{"action":"observe","colour":"red"}`:            `{"action":"observe"}`,
		`{"action":"observe","ref":"e1","colour":"red"}`: `"target": {"ref": "e12"}`,
	} {
		_, e := messages.DecodeAct([]byte(in))
		if e == nil || e.Code != messages.CodeBadInput || !strings.Contains(e.Message, want) || strings.Count(e.Message, ". ") > 0 {
			t.Errorf("DecodeAct(%s) = %v, want one bad_input sentence saying %s", in, e, want)
		}
	}
}
