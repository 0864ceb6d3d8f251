package apiclient

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/valyala/fasthttp"
)

// WithFast sends requests through a fasthttp HostClient with up to conns
// kept-alive connections and per-request timeout. It never retries: a
// retried act would be a replay the caller did not ask for. A context's
// cancellation is not seen; its deadline bounds the request.
func WithFast(conns int, timeout time.Duration) Option {
	return func(c *Client) { c.tr = &fastTransport{conns: conns, timeout: timeout} }
}

type fastTransport struct {
	conns   int
	timeout time.Duration
	hc      *fasthttp.HostClient
}

// client builds the HostClient for base; New calls it once, before any
// request, so sends only read t.hc.
func (t *fastTransport) client(raw string) (*fasthttp.HostClient, error) {
	if t.hc != nil {
		return t.hc, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	addr := u.Host
	switch {
	case u.Port() != "":
	case u.Scheme == "https":
		addr += ":443"
	default:
		addr += ":80"
	}
	t.hc = &fasthttp.HostClient{
		Addr:                     addr,
		IsTLS:                    u.Scheme == "https",
		MaxConns:                 t.conns,
		MaxIdleConnDuration:      time.Minute,
		ReadTimeout:              t.timeout,
		WriteTimeout:             t.timeout,
		MaxConnWaitTimeout:       t.timeout,
		RetryIfErr:               func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		NoDefaultUserAgentHeader: true,
	}
	return t.hc, nil
}

func (t *fastTransport) send(ctx context.Context, method, u, token, agent string, body []byte, read func(int, []byte)) error {
	hc, err := t.client(u)
	if err != nil {
		return err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(u)
	req.Header.SetMethod(method)
	req.Header.SetUserAgent(agent)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(body)
	}
	d := t.timeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		d = time.Until(dl)
	}
	if err := hc.DoTimeout(req, resp, d); err != nil {
		if errors.Is(err, fasthttp.ErrTimeout) {
			return errTimeout
		}
		return err
	}
	read(resp.StatusCode(), resp.Body())
	return nil
}

func (t *fastTransport) closeIdle() {
	if t.hc != nil {
		t.hc.CloseIdleConnections()
	}
}
