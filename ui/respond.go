package ui

import (
	"encoding/json"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// envelope is every API answer, as the contract writes it.
type envelope = messages.Envelope[messages.Answer]

func writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	ctx.SetStatusCode(status)
	ctx.SetContentType("application/json")
	ctx.Response.Header.Set("Cache-Control", "no-store")
	if err := json.NewEncoder(ctx).Encode(v); err != nil {
		ctx.ResetBody()
		ctx.SetStatusCode(fasthttp.StatusInternalServerError)
		ctx.SetBodyString(`{"ok":false,"error":{"code":"internal","message":"The answer could not be encoded."}}`)
	}
}

func writeOK(ctx *fasthttp.RequestCtx, result messages.Answer) {
	writeJSON(ctx, fasthttp.StatusOK, envelope{OK: true, Result: result})
}

// writeError answers e with the HTTP status the contract gives its code.
func writeError(ctx *fasthttp.RequestCtx, e *messages.Error) {
	writeJSON(ctx, e.Code.HTTPStatus(), envelope{Error: e})
}
