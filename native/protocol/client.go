package protocol

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"
)

// Client runs a helper binary, one short-lived process per call, with the
// protocol's bounds: the request within MaxRequestBytes, the answer read up
// to MaxResponseBytes, a timeout per call, and the helper's whole process
// group killed when the call is cancelled, times out or overflows.
//
// One process per call rather than one per session: a call cannot see
// another call's state, a hung or crashed helper costs exactly one call, and
// there is no long-lived process to supervise, keep bounded or restart. It
// costs a process start and fresh connections to the window system on every
// call, which the benchmarks in native/linux measure.
type Client struct {
	Path    string                       // the helper executable
	Env     []string                     // its environment; nil means buddi's own
	Timeout func(*Request) time.Duration // nil means DefaultTimeout (plus the fill allowance)
	Logger  *slog.Logger                 // one debug line per call; nil logs nothing
}

// errOversized is the cause given to a call whose helper wrote too much.
var errOversized = errors.New("answer larger than MaxResponseBytes")

const stderrKeep = 4 << 10

// Do runs one call. It returns the helper's Response when the helper
// answered with a result, and an *Error otherwise: the helper's own refusal,
// or a client-side code when the helper could not be run, was late, crashed,
// or answered too much or malformed. Input calls that fail in those ways
// report InputUncertain.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	timeout := c.timeout(req)
	r := *req
	r.V = Version
	r.TimeoutMS = int(helperBudget(timeout) / time.Millisecond)
	body, err := EncodeRequest(&r)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, err := c.run(ctx, body, timeout)
	var resp *Response
	if err == nil {
		resp, err = DecodeResponse(r.Call, out)
	}
	if err == nil && resp.Error != nil {
		err = resp.Error
	}
	var e *Error
	if errors.As(err, &e) && r.Call.SendsInput() && clientSide(e.Code) {
		e.InputUncertain = true
	}
	if c.Logger != nil {
		c.Logger.Debug("native helper call", "call", r.Call, "ms", time.Since(start).Milliseconds(),
			"bytes", len(out), "code", CodeOf(err))
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// clientSide reports whether code says the helper's fate is unknown, so an
// input it was sending may or may not have happened.
func clientSide(code Code) bool {
	switch code {
	case CodeHelperTimeout, CodeHelperCrashed, CodeHelperMalformed, CodeHelperOversized, CodeCancelled, CodeUnsupportedVersion:
		return true
	}
	return false
}

func (c *Client) timeout(r *Request) time.Duration {
	if c.Timeout != nil {
		if d := c.Timeout(r); d > 0 {
			return d
		}
	}
	d := DefaultTimeout(r.Call)
	if r.Fill != nil {
		d += time.Duration(utf8.RuneCountInString(r.Fill.Value)) * FillTimeoutPerRune
	}
	return d
}

// helperBudget leaves the helper time to answer before it is killed.
func helperBudget(timeout time.Duration) time.Duration {
	margin := min(timeout/10, time.Second)
	return max(timeout-margin, time.Millisecond)
}

// run starts the helper, feeds it body and returns its standard output.
func (c *Client) run(ctx context.Context, body []byte, timeout time.Duration) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, Errorf(CodeCancelled, "The call was cancelled before the helper started.")
	}
	callCtx, cancelCall := context.WithTimeout(ctx, timeout)
	defer cancelCall()
	runCtx, stop := context.WithCancelCause(callCtx)
	defer stop(nil)

	cmd := exec.CommandContext(runCtx, c.Path)
	cmd.Env = c.Env
	cmd.Stdin = bytes.NewReader(body)
	stdout := &capWriter{max: MaxResponseBytes, overflow: func() { stop(errOversized) }}
	stderr := &capWriter{max: stderrKeep}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second
	ownGroup(cmd)

	if err := cmd.Start(); err != nil {
		return nil, Errorf(CodeHelperMissing, "The computer-control helper could not be started; check that it is installed next to buddi.").WithDetail(err)
	}
	err := cmd.Wait()
	switch {
	case errors.Is(context.Cause(runCtx), errOversized):
		return nil, Errorf(CodeHelperOversized, "The helper's answer was larger than %d bytes and was discarded; observe a smaller window.", MaxResponseBytes)
	case ctx.Err() != nil:
		return nil, Errorf(CodeCancelled, "The call was cancelled and the helper stopped.")
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return nil, Errorf(CodeHelperTimeout, "The helper did not answer within %s and was stopped; the app may be busy, observe again in a few seconds.", timeout.Round(time.Millisecond))
	case err != nil && (cmd.ProcessState == nil || !cmd.ProcessState.Success()):
		return nil, Errorf(CodeHelperCrashed, "The helper stopped without answering; observe again, and report the helper if it keeps failing.").WithDetail(crashDetail(err, stderr.buf.String()))
	}
	return stdout.buf.Bytes(), nil
}

func crashDetail(err error, stderr string) error {
	if s := strings.TrimSpace(stderr); s != "" {
		return errors.New(err.Error() + ": " + s)
	}
	return err
}

// capWriter keeps the first max bytes written to it and calls overflow once
// when more arrive. It never fails a write, so the copy goroutine drains the
// pipe until the process is gone.
type capWriter struct {
	buf      bytes.Buffer
	max      int
	over     bool
	overflow func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := w.max - w.buf.Len()
	if len(p) <= room {
		w.buf.Write(p)
		return len(p), nil
	}
	w.buf.Write(p[:max(room, 0)])
	if !w.over && w.overflow != nil {
		w.over = true
		w.overflow()
	}
	return len(p), nil
}
