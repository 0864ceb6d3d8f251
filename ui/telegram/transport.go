package telegram

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// boundTransport runs every request of the bot under the bot's context, so
// that Close ends a long poll or an upload in flight at once. telebot's own
// cancellation works only inside its Start, which the bot does not use.
type boundTransport struct {
	ctx  context.Context
	base http.RoundTripper
}

func (t boundTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return t.base.RoundTrip(r.WithContext(t.ctx))
}

// newClient is the HTTP client for the Bot API: bound to ctx, and with a
// deadline past the long poll's own.
func newClient(ctx context.Context, poll time.Duration) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.ResponseHeaderTimeout = poll + 15*time.Second
	return &http.Client{Transport: boundTransport{ctx: ctx, base: base}, Timeout: poll + 30*time.Second}
}

// guard runs one call into telebot and turns a panic into an error: telebot
// asserts on the types of answer fields (retry_after, the message sent)
// that a broken or hostile server may not send.
func guard(call func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrGarbled, r)
		}
	}()
	return call()
}
