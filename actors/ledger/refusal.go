package ledger

import (
	"fmt"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// refusalSeq tells apart refusals recorded in the same instant.
var refusalSeq atomic.Uint64

// MaxRefusalText bounds each text of a refusal record, in bytes: a URL a
// page made up is cut, not kept whole.
const MaxRefusalText = 1024

// Bounded returns r with each text cut to MaxRefusalText bytes (on a rune
// boundary, an ellipsis marking the cut), and the URL of a refusal for a
// secret in it cut to its site. Every writer of the record
// stores r.Bounded(): the session's refusals, and through RecordRefusal the
// controller's and the browser's own.
func (r Refusal) Bounded() Refusal {
	r.URL = messages.Recorded(messages.Code(r.Code), r.URL) // never the secret a refused URL carried
	r.Conversation, r.Agent = clipText(r.Conversation), clipText(r.Agent)
	r.Action, r.URL, r.Code = clipText(r.Action), clipText(r.URL), clipText(r.Code)
	return r
}

func clipText(s string) string {
	if len(s) <= MaxRefusalText {
		return s
	}
	i := MaxRefusalText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// RecordRefusal adds r, bounded, to the air-gap refusal record without
// waiting: the controller and the daemon (for the browser's own refusals)
// write it this way; the session writes it under its own key, bounded the
// same way. The ledger keeps only the newest MaxRefusals.
func RecordRefusal(ctx actor.SenderContext, ledger *actor.PID, r Refusal) {
	r = r.Bounded()
	if r.At.IsZero() {
		r.At = time.Now()
	}
	r.At = r.At.UTC()
	id := fmt.Sprintf("%s/%08d/%s", r.At.Format("20060102T150405.000000000"), refusalSeq.Add(1)%1e8, r.Conversation)
	ctx.Send(ledger, &Write{Ops: []Op{Put(RefusalKey(id), r)}})
}
