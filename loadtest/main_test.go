package loadtest_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// fasthttp's coarse clock and protoactor's process registry run for the process's life.
		goleak.IgnoreTopFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
		goleak.IgnoreAnyFunction("github.com/asynkron/protoactor-go/actor.NewActorSystemWithConfig.func1"),
		// fasthttp's worker-pool cleaner notices Stop only after its 10 s nap.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
		// The client's idle-connection cleaner sleeps out MaxIdleConnDuration
		// before it sees the connections closed; its dialer's address cache
		// lives as long as the process.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
	)
}
