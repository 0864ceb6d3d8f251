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

// WithPipeline sends requests through fasthttp's PipelineClient: conns
// kept-alive connections, each carrying the requests of many callers one
// after another without waiting for the answers between them (HTTP/1.1
// pipelining), so that one system call writes, and the server reads, many
// requests. The server answers a connection's requests in order, one at a
// time, so a slow request delays those behind it on its connection. Like
// WithFast it never retries; a request that was on a connection that broke
// fails, whether or not the server had acted on it.
func WithPipeline(conns int, timeout time.Duration) Option {
	return func(c *Client) { c.tr = &fastTransport{conns: conns, timeout: timeout, pipelined: true} }
}

type fastTransport struct {
	conns     int
	timeout   time.Duration
	pipelined bool
	hc        doer
}

// pipelineIdle is how long a pipelined connection stays open with no
// request on it: a PipelineClient cannot be closed, so its connections
// (and their reader and writer goroutines) end this long after the last
// request.
const pipelineIdle = time.Second

// doer is what sends: a HostClient or a PipelineClient.
type doer interface {
	DoTimeout(req *fasthttp.Request, resp *fasthttp.Response, timeout time.Duration) error
}

// client builds the client for base; New calls it once, before any
// request, so sends only read t.hc.
func (t *fastTransport) client(raw string) (doer, error) {
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
	if t.pipelined {
		pc := &fasthttp.PipelineClient{
			Addr:                     addr,
			IsTLS:                    u.Scheme == "https",
			MaxConns:                 t.conns,
			MaxIdleConnDuration:      pipelineIdle,
			ReadTimeout:              t.timeout,
			WriteTimeout:             t.timeout,
			NoDefaultUserAgentHeader: true,
		}
		t.hc = pc
		return pc, nil
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

func (t *fastTransport) send(ctx context.Context, method, base, path, token, agent string, body []byte, read func(int, []byte)) error {
	hc, err := t.client(base)
	if err != nil {
		return err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	var uri [256]byte // base and path joined, without an allocation of their own
	req.SetRequestURIBytes(append(append(uri[:0], base...), path...))
	req.Header.SetMethod(method)
	req.Header.SetUserAgent(agent)
	if token != "" {
		var auth [128]byte // a token's line, without an allocation of its own
		req.Header.SetBytesV("Authorization", append(append(auth[:0], "Bearer "...), token...))
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

// Conns is how many connections a WithFast client holds open, in use or
// idle; 0 with another transport, which does not say.
func (c *Client) Conns() int {
	if f, ok := c.tr.(*fastTransport); ok {
		if hc, ok := f.hc.(*fasthttp.HostClient); ok {
			return hc.ConnsCount()
		}
	}
	return 0
}

// closeIdle closes the connections no request is on; a PipelineClient's
// close by themselves, pipelineIdle after their last request.
func (t *fastTransport) closeIdle() {
	if hc, ok := t.hc.(*fasthttp.HostClient); ok {
		hc.CloseIdleConnections()
	}
}
