package messages

import (
	"reflect"
	"testing"
)

// FuzzDecodeActFast checks that whatever the fast decoder accepts, the
// strict decoder accepts too and decodes to the same input.
func FuzzDecodeActFast(f *testing.F) {
	for _, s := range []string{
		`{"action":"observe"}`,
		` { "action" : "click", "observation":"o3.2", "target": {"ref":"e12"} } `,
		`{"action":"scroll","observation":"o1.1","deltaY":-400}`,
		`{"action":"fill","observation":"o1.1","target":{"ref":"e3","frame":2},"value":"héllo wörld"}`,
		`{"action":"find","text":"Deals","exact":true,"role":"link","name":"x"}`,
		`{"action":"dom","maxChars":100,"selector":"main > p"}`,
		`{"action":"observe","screenshot":false,"fullRes":true,"fullPage":true,"within":"e4","after":"e9","rows":"1-4"}`,
		`{"action":"click","observation":"o2.1","target":{"ref":"e7"},"thenObserve":true}`,
		`{"action":"navigate","url":"https://a.example/p?q=1","urlSource":"page_link","timeoutMs":0}`,
		`{"action":"press","observation":"o1","key":"End"}{}`,
		`{"action":"press","Action":"x"}`,
		`{"action":"press","action":"x"}`,
		`{"action":"a\"b"}`,
		`{"action":null}`,
		`{"deltaY":1.5}`, `{"deltaY":01}`, `{"deltaY":1e3}`, `{"deltaY":12345678901234567890}`,
		`{"target":{"x":1,"y":2}}`, `{"values":["a"]}`, `{}`, `{"action":"x",}`, `[]`, ``,
		"{\"value\":\"\xff\"}", `{"tab":"new","tabId":"t1","secret":"s","app":"A","appId":"b.c"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fast ActInput
		if !decodeActFast(raw, &fast) {
			return
		}
		var strict ActInput
		if err := decodeStrict(raw, &strict); err != nil {
			t.Fatalf("%q: the fast decoder accepted what the strict one refuses: %v", raw, err)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%q: fast %+v, strict %+v", raw, fast, strict)
		}
	})
}

// TestDecodeActFastTakesTheCommonActs names the inputs agents send most,
// which must not fall back to the reflecting decoder.
func TestDecodeActFastTakesTheCommonActs(t *testing.T) {
	for _, s := range []string{
		`{"action":"observe"}`,
		`{"action":"click","observation":"o3.2","target":{"ref":"e12"}}`,
		`{"action":"fill","observation":"o3.2","target":{"ref":"e3"},"value":"load 12"}`,
		`{"action":"navigate","url":"https://sim.localhost/p/1"}`,
		`{"action":"scroll","observation":"o1.1","deltaY":400}`,
	} {
		var in ActInput
		if !decodeActFast([]byte(s), &in) {
			t.Errorf("%s fell back to the strict decoder", s)
		}
	}
}
