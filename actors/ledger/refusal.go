package ledger

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// refusalSeq tells apart refusals recorded in the same instant.
var refusalSeq atomic.Uint64

// RecordRefusal adds r to the air-gap refusal record, without waiting: the
// one place anything writes that record (the session, the controller and
// the browser's own refusals all come through here), so a bound on it
// belongs here too.
func RecordRefusal(ctx actor.SenderContext, ledger *actor.PID, r Refusal) {
	if r.At.IsZero() {
		r.At = time.Now()
	}
	r.At = r.At.UTC()
	id := fmt.Sprintf("%s/%08d/%s", r.At.Format("20060102T150405.000000000"), refusalSeq.Add(1)%1e8, r.Conversation)
	ctx.Send(ledger, &Write{Ops: []Op{Put(RefusalKey(id), r)}})
}
