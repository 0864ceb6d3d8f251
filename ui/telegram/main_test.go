package telegram_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test stops its daemon, and with it the bot: nothing of the bot may
// be left running.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// fasthttp's coarse clock and protoactor's process registry run for the process's life.
		goleak.IgnoreTopFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
		goleak.IgnoreAnyFunction("github.com/asynkron/protoactor-go/actor.NewActorSystemWithConfig.func1"),
		// fasthttp's worker-pool cleaner notices Stop only after its 10 s nap.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
	)
}
