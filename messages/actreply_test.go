package messages_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// snippets are what mutate puts into an answer: JSON's punctuation and
// escapes, surrogates, keys in another case, an error, numbers, bytes
// that are not UTF-8 or not allowed.
var snippets = []string{`"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, ` `, "\x00", "\xff", "\n", `0`, `-`, `.`, `e`, `u`,
	`\ud83d\ude00`, `\ud83d`, `\u00e9`, `\u0000`, `\/`, `\x`, `"OK"`, `"Text"`, `"text":"x",`, `"url":1,`, `"error":null,`,
	`"error":{"code":"stale_ref","message":"m"},`, `"ok":null,`, `"result":null,`, `1e5`, `-0.5`, `01`, `truex`, `nul`,
	`"ſtepsLeft":1,`, `"zz":[1,{"a":[]},"\u00e9"],`, `[[[[[[[[`, "\u2028", `"observation":"o1",`}

// mutate changes b once, somewhere.
func mutate(r *rand.Rand, b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	i := r.IntN(len(b))
	switch r.IntN(4) {
	case 0:
		return slices.Concat(b[:i], []byte(snippets[r.IntN(len(snippets))]), b[i:])
	case 1:
		return slices.Concat(b[:i], []byte(snippets[r.IntN(len(snippets))]), b[i+1:])
	case 2:
		return slices.Concat(b[:i], b[i+1:])
	}
	return b[:i]
}

// TestActReplyDecodeFastIsJSONUnmarshal holds the fast decoder to
// encoding/json: every answer buddi writes is decoded without it, to the
// same values; a changed answer is decoded either to what json.Unmarshal
// gives, into the same starting value, or not at all; and with TextInto
// set, to the same, the text in the buffer.
func TestActReplyDecodeFastIsJSONUnmarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	accepted := 0
	refusals := 0
	for i := range 60000 {
		b, _ := messages.AppendOK(nil, randomAnswer(r))
		if r.IntN(3) == 0 {
			b = randomRefusal(r)
			refusals++
		}
		for range i % 4 {
			b = mutate(r, b)
		}
		textInto(t, b)
		var start messages.ActReply
		if r.IntN(4) == 0 {
			start = messages.ActReply{OK: true, Result: messages.ActReplyResult{Observation: "o9", Text: "before"}}
		}
		fast := start
		if !fast.DecodeFast(b) {
			if i%4 == 0 {
				t.Fatalf("an answer as buddi writes it was left to encoding/json: %q", b)
			}
			if !reflect.DeepEqual(fast, start) {
				t.Fatalf("DecodeFast(%q) refused it but changed the reply to %+v", b, fast)
			}
			continue
		}
		accepted++
		want := start
		if err := json.Unmarshal(b, &want); err != nil || !reflect.DeepEqual(fast, want) {
			t.Fatalf("DecodeFast(%q)\n = %+v\nwant %+v (%v)", b, fast, want, err)
		}
	}
	if accepted < 20000 || refusals < 15000 {
		t.Fatalf("only %d of 60000 answers (%d refusals) were decoded without encoding/json", accepted, refusals)
	}
}

// randomRefusal is a refusal as the HTTP API writes one: its code and
// sentence, and now and then the page as it is now, or a script's steps.
func randomRefusal(r *rand.Rand) []byte {
	e := &messages.Error{Code: messages.Code(randomText(r)), Message: randomText(r)}
	switch r.IntN(3) {
	case 0:
		if o, ok := randomAnswer(r).(*messages.Observation); ok {
			e.Observation = o
		}
	case 1:
		e.Script = &messages.ScriptResult{Steps: []messages.ScriptStep{{Step: 1, Action: "click", Code: messages.CodeStaleRef}}, Text: randomText(r)}
	}
	b, err := json.Marshal(messages.Envelope[messages.Answer]{Error: e})
	if err != nil {
		panic(err)
	}
	return b
}

// textInto checks that decoding b with TextInto set gives what decoding
// it without gives, the text in the buffer (stale room and all) and
// Result.Text left empty, or, refused, leaves the buffer empty.
func textInto(t *testing.T, b []byte) {
	t.Helper()
	var plain messages.ActReply
	plainOK := plain.DecodeFast(b)
	buf := []byte("the text of an earlier answer")
	into := messages.ActReply{TextInto: &buf}
	if into.DecodeFast(b) != plainOK {
		t.Fatalf("DecodeFast(%q) with TextInto accepted it %v, without %v", b, !plainOK, plainOK)
	}
	if !plainOK {
		if len(buf) != 0 {
			t.Fatalf("DecodeFast(%q) with TextInto refused it and left %q in the buffer", b, buf)
		}
		return
	}
	want := plain
	want.Result.Text = ""
	into.TextInto = nil
	if !reflect.DeepEqual(into, want) || string(buf) != plain.Result.Text {
		t.Fatalf("DecodeFast(%q) with TextInto = %+v and %q\nwant %+v and %q", b, into, buf, want, plain.Result.Text)
	}
}

func FuzzActReplyDecodeFast(f *testing.F) {
	f.Add([]byte(`{"ok":true,"result":{"observation":"o1","text":"a\nb \"c\" \u00e9","url":"https://a.example/","tabs":[{"id":"t1"}],"stepsLeft":3}}`))
	f.Add([]byte(`{"ok":false,"error":{"code":"stale_ref","message":"m"}}`))
	f.Add([]byte(`{"ok":false,"error":{"code":"stale_ref","message":"m","observation":{"observation":"o2","text":"t","url":"u","tabs":[]}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast, want messages.ActReply
		if !fast.DecodeFast(b) {
			return
		}
		if err := json.Unmarshal(b, &want); err != nil || !reflect.DeepEqual(fast, want) {
			t.Fatalf("DecodeFast(%q)\n = %+v\nwant %+v (%v)", b, fast, want, err)
		}
	})
}

func BenchmarkActReplyDecode(b *testing.B) {
	text := strings.Repeat("- link \"Read the docs\" [ref=e12] https://example.com/docs?page=2\n", 32)
	answer, _ := messages.AppendOK(nil, &messages.Observation{ID: "o12", ObservedAt: time.Unix(1e9, 5), Text: text,
		URL: "https://example.com/", Tab: "t1", StepsLeft: 40})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			var a messages.ActReply
			if !a.DecodeFast(answer) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("fast-into", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer)))
		var buf []byte
		for b.Loop() {
			a := messages.ActReply{TextInto: &buf}
			if !a.DecodeFast(answer) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			var a messages.ActReply
			if err := json.Unmarshal(answer, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
