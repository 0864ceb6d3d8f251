package ui

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// envelope is every API answer, as the contract writes it.
type envelope = messages.Envelope[messages.Answer]

// writeJSON sends v, or an error envelope when v cannot be encoded or its
// encoding is larger than messages.MaxAnswerBytes.
func writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("application/json")
	buf := answers.Get().(*bytes.Buffer)
	defer putAnswer(buf)
	// The encoder writes what json.Marshal does, and the line's end.
	enc := json.NewEncoder(buf)
	err := enc.Encode(v)
	switch {
	case err != nil:
		buf.Reset()
		_ = enc.Encode(envelope{Error: &messages.Error{Code: messages.CodeInternal, Message: "The answer could not be encoded."}})
		status = messages.CodeInternal.HTTPStatus()
	case buf.Len()-1 > messages.MaxAnswerBytes:
		e := messages.CodeTooLarge.Err((buf.Len()-1+(1<<20)-1)>>20, messages.MaxAnswerBytes>>20)
		buf.Reset()
		_ = enc.Encode(envelope{Error: e})
		status = e.Code.HTTPStatus()
	}
	ctx.SetStatusCode(status)
	ctx.SetBody(buf.Bytes())
}

// answers are the buffers answers are encoded in before the response
// copies them; one grown past maxPooled is left to the collector.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooled = 256 << 10

func putAnswer(b *bytes.Buffer) {
	if b.Cap() > maxPooled {
		return
	}
	b.Reset()
	answers.Put(b)
}

// encodeAnswer encodes v, refusing what is past messages.MaxAnswerBytes.
func encodeAnswer(v any) ([]byte, *messages.Error) {
	raw, err := json.Marshal(v)
	switch {
	case err != nil:
		return nil, &messages.Error{Code: messages.CodeInternal, Message: "The answer could not be encoded."}
	case len(raw) > messages.MaxAnswerBytes:
		return nil, messages.CodeTooLarge.Err((len(raw)+(1<<20)-1)>>20, messages.MaxAnswerBytes>>20)
	}
	return raw, nil
}

// writeOK sends result in a successful envelope. The hot path's answers
// (observations and outcomes) are written without reflection, byte for
// byte as writeJSON writes them.
func writeOK(ctx *fasthttp.RequestCtx, result messages.Answer) {
	buf := answers.Get().(*bytes.Buffer)
	defer putAnswer(buf)
	b, ok := messages.AppendOK(buf.AvailableBuffer(), result)
	if !ok || len(b)-1 > messages.MaxAnswerBytes {
		writeJSON(ctx, fasthttp.StatusOK, envelope{OK: true, Result: result})
		return
	}
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("application/json")
	ctx.SetStatusCode(fasthttp.StatusOK)
	ctx.SetBody(b)
	if cap(b) > buf.Cap() {
		buf.Grow(cap(b)) // the pooled buffer keeps room for the next one
	}
}

// writeError answers e with the HTTP status the contract gives its code.
func writeError(ctx *fasthttp.RequestCtx, e *messages.Error) {
	writeJSON(ctx, e.Code.HTTPStatus(), envelope{Error: e})
}
