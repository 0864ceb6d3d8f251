package apiclient

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// TestAnEnvelopeReadsAsEncodingJSONReadsIt: every answer decodes to the
// envelope encoding/json makes of it, whether the one-pass reader takes it
// or leaves it.
func TestAnEnvelopeReadsAsEncodingJSONReadsIt(t *testing.T) {
	for _, answer := range []string{
		`{"ok":true,"result":{"text":"Observed.\n\u003c\u003c\u003c","n":[1,2]}}`,
		`{"ok":true,"result":null}`,
		`{"ok":true}`,
		`{"result":"x","ok":false}`,
		`{"ok":false,"error":{"code":"stale_ref","message":"No such ref."}}`,
		`{"OK":true,"Result":{"a":1}}`,
		` { "ok" : true , "result" : [ 1 ] } `,
		`{"ok":true,"result":1,"result":2}`,
		`{"ok":"yes"}`,
	} {
		var want, got messages.Raw
		wantErr := json.Unmarshal([]byte(answer), &want) != nil
		if ok := decodeAnswer([]byte(answer), &got); ok == wantErr {
			t.Errorf("%s: decoded %v, encoding/json's error %v", answer, ok, wantErr)
			continue
		}
		if !wantErr && !reflect.DeepEqual(normal(got), normal(want)) {
			t.Errorf("%s:\n got %+v\nwant %+v", answer, got, want)
		}
	}
}

// normal is e with its result compacted, as a reader passing it on sees it.
func normal(e messages.Raw) messages.Raw {
	if len(e.Result) > 0 {
		var v any
		_ = json.Unmarshal(e.Result, &v)
		e.Result, _ = json.Marshal(v)
	}
	return e
}
