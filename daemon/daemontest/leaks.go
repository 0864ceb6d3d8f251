package daemontest

import "go.uber.org/goleak"

// Lifelong are the goroutines of an in-process daemon that outlive it by
// design, for goleak in a TestMain: fasthttp's coarse clock and
// protoactor's process registry run for the process's life, fasthttp's
// worker-pool cleaner notices Stop only after its 10 s nap, and
// protoactor's dead-letter throttle waits out its 1 s period after a
// message to a stopped actor (a normal end of an actor's life, for instance
// a session's reply to a caller that gave up) before it ends, and the warm
// goroutines of actors.Dispatcher wait idle a few seconds for more work
// before they end, with their sweeper (one busy in a func is not ignored).
func Lifelong() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreTopFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
		goleak.IgnoreAnyFunction("github.com/asynkron/protoactor-go/actor.NewActorSystemWithConfig.func1"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
		goleak.IgnoreAnyFunction("github.com/asynkron/protoactor-go/actor.NewDeadLetter.NewThrottle.func4.1"),
		goleak.IgnoreTopFunction("github.com/buddi-dev/buddi/actors.(*Warm).work"),
		goleak.IgnoreTopFunction("github.com/buddi-dev/buddi/actors.(*Warm).sweep"),
	}
}
