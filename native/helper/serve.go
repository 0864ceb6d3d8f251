package helper

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Main runs one call of a helper process: it reads the request from in,
// writes the answer to out and returns the exit code (0 whenever an answer
// was written). It closes p afterwards when p is an io.Closer.
func Main(p Platform, in io.Reader, out io.Writer) int {
	resp := Serve(p, in)
	if c, ok := p.(io.Closer); ok {
		_ = c.Close()
	}
	if _, err := out.Write(protocol.EncodeResponse(resp)); err != nil {
		return 1
	}
	return 0
}

// Serve reads one request from in and answers it through p. It never
// panics: a panic becomes a helper_failed answer, or input_uncertain for a
// call that sends input.
func Serve(p Platform, in io.Reader) *protocol.Response {
	data, err := io.ReadAll(io.LimitReader(in, protocol.MaxRequestBytes+1))
	if err != nil {
		return answer(protocol.Errorf(protocol.CodeBadRequest, "The helper could not read its request.").WithDetail(err))
	}
	req, err := protocol.DecodeRequest(data)
	if err != nil {
		return answer(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(req.TimeoutMS)*time.Millisecond)
	defer cancel()
	return run(ctx, p, req)
}

func run(ctx context.Context, p Platform, req *protocol.Request) (resp *protocol.Response) {
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("panic: %v", v)
			if req.Call.SendsInput() {
				resp = answer(uncertain(err))
				return
			}
			resp = answer(protocol.Errorf(protocol.CodeHelperFailed, "The helper failed unexpectedly; try again, and report the helper if it keeps failing.").WithDetail(err))
		}
	}()
	r := &protocol.Response{}
	var err error
	switch req.Call {
	case protocol.CallObserve:
		r.Observation, err = observe(ctx, p, req.Observe)
	case protocol.CallClick:
		r.Input, err = click(ctx, p, req.Click)
	case protocol.CallFill:
		r.Input, err = fill(ctx, p, req.Fill)
	case protocol.CallPress:
		r.Input, err = press(ctx, p, req.Press)
	case protocol.CallOpen:
		r.Opened, err = open(ctx, p, req.Open)
	case protocol.CallNavigate:
		r.Navigated, err = navigate(ctx, p, req.Navigate)
	case protocol.CallFind:
		r.Found, err = find(ctx, p, req.Find)
	case protocol.CallProbe:
		perm := p.Probe(ctx)
		r.Permissions = &perm
	case protocol.CallRequestPermissions:
		perm := p.RequestPermissions(ctx)
		r.Permissions = &perm
	}
	if err != nil {
		return answer(err)
	}
	return r
}

// answer turns err into an error response.
func answer(err error) *protocol.Response {
	var e *protocol.Error
	if !errors.As(err, &e) {
		e = protocol.Errorf(protocol.CodeHelperFailed, "The helper failed before sending anything; try again, and report the helper if it keeps failing.").WithDetail(err)
	}
	return &protocol.Response{V: protocol.Version, Error: e}
}

// failed passes a *protocol.Error through and gives any other error code
// and the sentence message.
func failed(err error, code protocol.Code, format string, args ...any) error {
	var e *protocol.Error
	if errors.As(err, &e) {
		return e
	}
	return protocol.Errorf(code, format, args...).WithDetail(err)
}

// uncertain reports an input that failed part-way. A *protocol.Error passes
// through: platforms return those only when they sent nothing.
func uncertain(err error) error {
	var e *protocol.Error
	if errors.As(err, &e) {
		return e
	}
	return (&protocol.Error{Code: protocol.CodeInputUncertain, InputUncertain: true,
		Message: "The input failed part-way and may have happened; observe the window before doing anything else."}).WithDetail(err)
}

// Sentence is what a person reads of err: the message of a
// *protocol.Error, else the error's text as one bounded line.
func Sentence(err error) string {
	var e *protocol.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return protocol.Clean(err.Error(), protocol.MaxMessageRunes)
}
