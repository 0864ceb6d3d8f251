package ledger

import (
	"fmt"
	"sync/atomic"
	"time"

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
	for _, s := range []*string{&r.Conversation, &r.Agent, &r.Action, &r.URL, &r.Code} {
		*s = messages.Clip(*s, MaxRefusalText)
	}
	return r
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

// BrowserRefusals is the hook a browser driver tells the refusals it made
// itself (a redirect hop, a link a click followed, a history step, a
// popup, a frame; Config.OnRefused): those the record keeps (air-gap, a
// secret in a URL) go to the record at pid, for the agent admit names.
// admit says false when the conversation's session ended or its agent's
// refusals are past their rate (a page refused in a loop records no faster
// than the agent's own refusals). The session records the refusals it
// decides before dispatch; between the two, every such refusal is in the
// record.
func BrowserRefusals(ctx actor.SenderContext, pid *actor.PID, admit func(conv string) (agent string, ok bool)) func(conv, url string, err error) {
	return func(conv, url string, err error) {
		code := messages.CodeOf(err)
		if !messages.RecordedRefusal(code) {
			return
		}
		agent, ok := admit(conv)
		if !ok {
			return
		}
		RecordRefusal(ctx, pid, Refusal{Conversation: conv, Agent: agent, Action: "browser", URL: url, Code: string(code)})
	}
}
