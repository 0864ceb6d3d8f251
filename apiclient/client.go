package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// maxAnswer caps an answer; a full-resolution screenshot is a few MB.
const maxAnswer = 64 << 20

// Client calls one daemon's HTTP API.
type Client struct {
	base  string // scheme://host:port
	tr    transport
	agent string // User-Agent
}

// transport sends one request, to base (scheme://host:port) and path, and
// hands the status and body of its answer to read, which must not keep the
// body.
type transport interface {
	send(ctx context.Context, method, base, path, token, agent string, body []byte, read func(status int, answer []byte)) error
	closeIdle()
}

// Option shapes a Client.
type Option func(*Client)

// WithHTTP sends requests through hc (its own Timeout is not needed: every
// call takes a context).
func WithHTTP(hc *http.Client) Option { return func(c *Client) { c.tr = &httpTransport{hc: hc} } }

// WithUserAgent names the caller in every request.
func WithUserAgent(ua string) Option { return func(c *Client) { c.agent = ua } }

// BaseURLError says a base URL is not an http or https URL with a host.
type BaseURLError struct{ URL string }

func (e *BaseURLError) Error() string {
	return fmt.Sprintf("%q is not the address of buddi; give an http URL such as http://127.0.0.1:7777", e.URL)
}

// New returns a client of the daemon at base, such as http://127.0.0.1:7777.
func New(base string, opts ...Option) (*Client, error) {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &BaseURLError{URL: base}
	}
	c := &Client{base: u.Scheme + "://" + u.Host, agent: "buddi"}
	for _, o := range opts {
		o(c)
	}
	if c.tr == nil {
		c.tr = &httpTransport{hc: newHTTPClient()}
	}
	if f, ok := c.tr.(*fastTransport); ok {
		if _, err := f.client(c.base); err != nil {
			return nil, &BaseURLError{URL: base}
		}
	}
	return c, nil
}

// Base is the daemon's base URL.
func (c *Client) Base() string { return c.base }

// CloseIdle closes the transport's idle connections.
func (c *Client) CloseIdle() { c.tr.closeIdle() }

// Response is one answer: its HTTP status and its envelope.
type Response struct {
	Status int
	messages.Raw
}

// Code is the answer's error code, "" on success.
func (r *Response) Code() messages.Code {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// Decode decodes the result into out.
func (r *Response) Decode(out any) error { return json.Unmarshal(r.Result, out) }

// Map decodes the result as an object.
func (r *Response) Map() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Result, &m)
	return m
}

// Do sends one request with a bearer token and decodes the envelope. body
// is sent as JSON ([]byte as is; nil sends none). The error is a
// *messages.Error when no API answer came.
func (c *Client) Do(ctx context.Context, method, path, token string, body any) (*Response, error) {
	r := &Response{}
	status, err := c.DoInto(ctx, method, path, token, body, &r.Raw)
	r.Status = status
	if err != nil {
		return nil, err
	}
	return r, nil
}

// DoInto sends one request and decodes the whole answer into env, which is
// a messages.Envelope of the caller's result type: the load harness reads
// just the fields it needs in one pass. A FastAnswer (messages.ActReply)
// decodes itself without reflection.
func (c *Client) DoInto(ctx context.Context, method, path, token string, body, env any) (int, error) {
	raw, err := encode(body)
	if err != nil {
		return 0, &messages.Error{Code: messages.CodeBadInput, Message: "The request could not be encoded as JSON; check its values."}
	}
	return c.DoJSONInto(ctx, method, path, token, raw, env)
}

// DoJSONInto is DoInto with a body that is JSON already (nil sends none):
// a caller that sends a buffer of its own, as the load harness does on
// every act, boxes nothing to send it.
func (c *Client) DoJSONInto(ctx context.Context, method, path, token string, body []byte, env any) (int, error) {
	var status int
	var bad bool
	var err error
	// The fast transport is called as itself, so that the function that
	// reads its answer stays on this stack: through the interface it
	// escapes, on every call.
	if f, ok := c.tr.(*fastTransport); ok {
		err = f.send(ctx, method, c.base, path, token, c.agent, body, func(s int, answer []byte) {
			status, bad = s, !readAnswer(answer, env)
		})
	} else {
		var st int
		var b bool // the function escapes with these, not with status and bad
		err = c.tr.send(ctx, method, c.base, path, token, c.agent, body, func(s int, answer []byte) {
			st, b = s, !readAnswer(answer, env)
		})
		status, bad = st, b
	}
	switch {
	case err != nil:
		return status, c.transportError(ctx, err)
	case bad && status == http.StatusUnauthorized:
		return status, &messages.Error{Code: messages.CodeUnauthorized, Message: "The token was refused."}
	case bad:
		return status, c.badAnswer(status)
	}
	return status, nil
}

// FastAnswer is an envelope that decodes itself without reflection
// (messages.ActReply): DecodeFast reports false, leaving it as it was,
// for an answer it leaves to encoding/json.
type FastAnswer interface {
	DecodeFast(answer []byte) bool
}

// readAnswer decodes answer into env, unless it is larger than any answer
// buddi writes.
func readAnswer(answer []byte, env any) bool {
	return len(answer) <= maxAnswer && decodeAnswer(answer, env)
}

// decodeAnswer decodes answer into env, in one pass when env is a
// FastAnswer that reads it or the envelope with its result left raw.
func decodeAnswer(answer []byte, env any) bool {
	switch e := env.(type) {
	case FastAnswer:
		if e.DecodeFast(answer) {
			return true
		}
	case *messages.Raw:
		if decodeRaw(answer, e) {
			return true
		}
	}
	return json.Unmarshal(answer, env) == nil
}

// decodeRaw reads a successful answer's envelope in one pass, its result
// copied as it was sent: a tool's answer (an observation of tens of KB) is
// passed on undecoded, and encoding/json would read it twice to do the
// same. It reports false, leaving env as it was, for what it leaves to
// encoding/json: an error, a key in another case, anything unusual.
func decodeRaw(answer []byte, env *messages.Raw) bool {
	members, ok := messages.Members(answer)
	if !ok {
		return false
	}
	var v messages.Raw
	for _, m := range members {
		switch m.Key {
		case "ok":
			switch string(m.Value) {
			case "true":
				v.OK = true
			case "false":
			default:
				return false
			}
		case "result":
			v.Result = bytes.Clone(m.Value)
		default:
			return false
		}
	}
	*env = v
	return true
}

func encode(body any) ([]byte, error) {
	switch b := body.(type) {
	case nil:
		return nil, nil
	case []byte:
		return b, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// transportError says why a request got no answer.
func (c *Client) transportError(ctx context.Context, err error) *messages.Error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, errTimeout):
		return &messages.Error{Code: messages.CodeTimeout, Message: "buddi did not answer in time; check `buddi sessions` and try again."}
	case ctx.Err() != nil:
		return &messages.Error{Code: messages.CodeCancelled, Message: "The call was cancelled before buddi answered."}
	}
	return messages.CodeUnreachable.Err(c.base)
}

func (c *Client) badAnswer(status int) *messages.Error {
	return messages.Errorf(messages.CodeBadAnswer,
		"%s answered HTTP %d without an answer of buddi's API; check that it is buddi and see its log.", c.base, status)
}

// Call sends one request and decodes the result into out (when not nil).
// Every failure, the daemon's refusals included, is a *messages.Error.
func (c *Client) Call(ctx context.Context, method, path, token string, body, out any) error {
	r, err := c.Do(ctx, method, path, token, body)
	if err != nil {
		return err
	}
	if r.Error != nil {
		return r.Error
	}
	if !r.OK {
		return c.badAnswer(r.Status)
	}
	if out != nil && len(r.Result) > 0 {
		if err := r.Decode(out); err != nil {
			return c.badAnswer(r.Status)
		}
	}
	return nil
}

// Tool calls an agent tool for conv and returns its result. A refusal is
// the daemon's *messages.Error (unauthorized for a token it does not know).
func (c *Client) Tool(ctx context.Context, token, tool, conv string, input any) (json.RawMessage, error) {
	r, err := c.Do(ctx, http.MethodPost, "/api/tools/"+tool, token, toolBody{Conversation: conv, Input: input})
	switch {
	case err != nil:
		return nil, err
	case r.Error != nil:
		return nil, r.Error
	case !r.OK:
		return nil, c.badAnswer(r.Status)
	case len(r.Result) == 0:
		return json.RawMessage("null"), nil
	}
	return r.Result, nil // checked and copied with the envelope
}

// toolBody is the agent API's request body.
type toolBody struct {
	Conversation string `json:"conversation"`
	Input        any    `json:"input"`
}

// Health reads /healthz: whether buddi answers, and its version. The rest
// is the owner's (Owner.Health).
func (c *Client) Health(ctx context.Context) (*messages.Health, error) { return c.health(ctx, "") }

func (c *Client) health(ctx context.Context, token string) (*messages.Health, error) {
	var h messages.Health
	var status int
	var bad bool
	err := c.tr.send(ctx, http.MethodGet, c.base, "/healthz", token, c.agent, nil, func(s int, answer []byte) {
		status, bad = s, json.Unmarshal(answer, &h) != nil
	})
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if bad || status != http.StatusOK {
		return nil, c.badAnswer(status)
	}
	return &h, nil
}

// errTimeout is a transport's own deadline passing.
var errTimeout = errors.New("apiclient: timeout")

// httpTransport sends through net/http.
type httpTransport struct{ hc *http.Client }

func (t *httpTransport) send(ctx context.Context, method, base, path, token, agent string, body []byte, read func(int, []byte)) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", agent)
	resp, err := t.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return err
	}
	read(resp.StatusCode, answer)
	return nil
}

func (t *httpTransport) closeIdle() { t.hc.CloseIdleConnections() }

// newHTTPClient has its own connection pool, so CloseIdle closes nobody
// else's connections.
func newHTTPClient() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return &http.Client{Transport: t.Clone()}
	}
	return &http.Client{}
}

// DefaultTimeout bounds a call made with a context without a deadline by
// the helpers that add one.
const DefaultTimeout = time.Minute
