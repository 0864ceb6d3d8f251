package playwright

import (
	"context"
	"errors"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
)

// errAbandoned marks a call given up because its context ended.
var errAbandoned = errors.New("playwright: call abandoned")

// call runs f, a blocking Playwright call, so that ctx can abandon it: when
// ctx ends first, call returns at once and f finishes in the background
// against its own timeout.
func call[T any](ctx context.Context, f func() (T, error)) (T, error) {
	v, _, err := callWatched(ctx, f)
	return v, err
}

// callWatched is call that also returns a channel closed once f has
// returned, or at once when ctx had ended and f never ran.
func callWatched[T any](ctx context.Context, f func() (T, error)) (T, <-chan struct{}, error) {
	var zero T
	done := make(chan struct{})
	if ctx.Err() != nil {
		close(done)
		return zero, done, abandoned(ctx)
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer close(done)
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, done, r.err
	case <-ctx.Done():
		return zero, done, abandoned(ctx)
	}
}

// do is call for functions with no result.
func do(ctx context.Context, f func() error) error {
	_, err := call(ctx, func() (struct{}, error) { return struct{}{}, f() })
	return err
}

func abandoned(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), errInterrupted) {
		return interrupted()
	}
	return errors.Join(errAbandoned, ctx.Err())
}

// ms is the Playwright timeout (milliseconds) for a call that may take def,
// shortened to what is left of ctx. Playwright reads 0 as "no timeout", so
// the result is at least 1.
func ms(ctx context.Context, def time.Duration) *float64 {
	d := def
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		d = time.Until(dl)
	}
	v := float64(d.Milliseconds())
	if v < 1 {
		v = 1
	}
	return &v
}

// ended maps an abandoned call to the code its caller reports: interrupted
// stays interrupted; a deadline becomes code.
func ended(err error, code drivers.Code, msg string) error {
	if errors.Is(err, errAbandoned) {
		return fail(code, err, msg)
	}
	return err
}

// send sends one typed DevTools command on s.
func send(s pw.CDPSession, c cdp.Command) (any, error) { return s.Send(c.Method(), cdp.Params(c)) }
