package loadtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/valyala/fasthttp"
)

// client calls one daemon's HTTP API over kept-alive connections, one per
// concurrent caller, so the harness is never what limits the run. It never
// retries: a retried act would be a replay the harness caused itself.
type client struct {
	hc      *fasthttp.HostClient
	base    string // scheme://host:port
	timeout time.Duration
}

func newClient(target string, conns int, timeout time.Duration) (*client, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the target %q is not an http(s) URL such as http://127.0.0.1:7777", target)
	}
	hc := &fasthttp.HostClient{
		Addr:                     addrOf(u),
		IsTLS:                    u.Scheme == "https",
		MaxConns:                 conns,
		MaxIdleConnDuration:      time.Minute,
		ReadTimeout:              timeout,
		WriteTimeout:             timeout,
		MaxConnWaitTimeout:       timeout,
		RetryIfErr:               func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		NoDefaultUserAgentHeader: true,
	}
	return &client{hc: hc, base: u.Scheme + "://" + u.Host, timeout: timeout}, nil
}

func addrOf(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return u.Host + ":443"
	}
	return u.Host + ":80"
}

// errTransport is a call that got no API answer.
var errTransport = errors.New("no answer")

// do sends one request with a bearer token and decodes the answer into out.
// body is sent as is (already JSON) when not nil.
func (c *client) do(method, path, token string, body []byte, out any) error {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(c.base + path)
	req.Header.SetMethod(method)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(body)
	}
	if err := c.hc.DoTimeout(req, resp, c.timeout); err != nil {
		return fmt.Errorf("%w: %s %s: %v", errTransport, method, path, err)
	}
	if err := json.Unmarshal(resp.Body(), out); err != nil {
		return fmt.Errorf("%w: %s %s: HTTP %d with a body that is not the API's: %v", errTransport, method, path, resp.StatusCode(), err)
	}
	return nil
}

// apiError is the error half of every answer.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// actReply is browser.act's answer, with the few result fields the agents read.
type actReply struct {
	OK     bool      `json:"ok"`
	Result actResult `json:"result"`
	Error  *apiError `json:"error"`
}

type actResult struct {
	Observation string `json:"observation"`
	URL         string `json:"url"`
	Text        string `json:"text"`
	Outcome     string `json:"outcome"`
}

// ownerReply is an owner route's answer; Result is decoded by the caller.
type ownerReply struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *apiError       `json:"error"`
}

func (r *ownerReply) code() string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// owner sends one owner request; code is the API's error code, "" on success.
func (c *client) owner(token, method, path string, body any) (*ownerReply, error) {
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	r := &ownerReply{}
	if err := c.do(method, path, token, b, r); err != nil {
		return nil, err
	}
	return r, nil
}

func (c *client) close() { c.hc.CloseIdleConnections() }
