package loadtest_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, append(daemontest.Lifelong(),
		// The client's idle-connection cleaner sleeps out MaxIdleConnDuration
		// before it sees the connections closed; its dialer's address cache
		// lives as long as the process.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
		// A pipelined run's connections (--pipeline) end a second after
		// their last request (apiclient's pipelineIdle): a PipelineClient
		// cannot be closed.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*pipelineConnClient).worker"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*pipelineConnClient).reader"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*pipelineConnClient).writer"),
	)...)
}
