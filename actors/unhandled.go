package actors

import (
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// unhandled counts, process-wide, the messages actors received and did not know.
var unhandled atomic.Int64

// Unhandled logs and counts a message an actor did not know, so none is
// dropped silently (a value sent where a pointer is expected lands here).
func Unhandled(ctx actor.Context, log *slog.Logger) {
	unhandled.Add(1)
	log.Error("an actor got a message it does not handle", "actor", ctx.Self().Id,
		"type", fmt.Sprintf("%T", ctx.Message()))
}

// UnhandledCount is how many messages actors did not know since start.
func UnhandledCount() int64 { return unhandled.Load() }
