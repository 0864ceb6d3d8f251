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
// boundary, an ellipsis marking the cut). Every writer of the record
// stores r.Bounded(): the session's refusals, and through RecordRefusal the
// controller's and the browser's own.
func (r Refusal) Bounded() Refusal {
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
// popup, a frame; Config.OnRefused): the air-gap ones go to the record at
// pid, with the conversation's agent as agentOf names it. The session
// records the refusals it decides before dispatch; between the two, every
// air-gap refusal is in the record.
func BrowserRefusals(ctx actor.SenderContext, pid *actor.PID, agentOf func(conv string) string) func(conv, url string, err error) {
	return func(conv, url string, err error) {
		if messages.CodeOf(err) != messages.CodeAirGap {
			return
		}
		RecordRefusal(ctx, pid, Refusal{Conversation: conv, Agent: agentOf(conv),
			Action: "browser", URL: url, Code: string(messages.CodeAirGap)})
	}
}
