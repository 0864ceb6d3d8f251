package protocol_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

func TestDecodeResponseAcceptsEachResult(t *testing.T) {
	cases := map[protocol.Call]*protocol.Response{
		protocol.CallObserve:  {Observation: validObservation(t)},
		protocol.CallClick:    {Input: &protocol.InputResult{Via: protocol.ViaAction}},
		protocol.CallFill:     {Input: &protocol.InputResult{Via: protocol.ViaKeyboard}},
		protocol.CallPress:    {Input: &protocol.InputResult{Via: protocol.ViaKeyboard}},
		protocol.CallOpen:     {Opened: &protocol.Opened{App: protocol.App{ID: "org.gnome.Calculator", Name: "Calculator"}, Window: validWindow()}},
		protocol.CallNavigate: {Navigated: &protocol.Navigated{Browser: protocol.App{ID: "chromium", Name: "Chromium"}, URL: "https://example.com/"}},
		protocol.CallFind:     {Found: &protocol.App{ID: "org.gnome.Calculator", Name: "Calculator"}},
		protocol.CallProbe: {Permissions: &protocol.Permissions{Platform: "linux-x11", Ready: true,
			Checks: []protocol.Check{{Name: "display", OK: true, Detail: "The display answers."}}}},
	}
	for call, r := range cases {
		t.Run(string(call), func(t *testing.T) {
			if _, err := protocol.DecodeResponse(call, encode(t, r)); err != nil {
				t.Fatalf("a valid %s answer was refused: %v", call, err)
			}
		})
	}
}

func TestDecodeResponsePassesRefusalsThrough(t *testing.T) {
	e := &protocol.Error{Code: protocol.CodeAppAmbiguous, Message: "2 installed apps are named Twin; open one by its id.",
		Candidates: []protocol.App{{ID: "a.one", Name: "Twin"}, {ID: "a.two", Name: "Twin"}}}
	r, err := protocol.DecodeResponse(protocol.CallOpen, encode(t, &protocol.Response{Error: e}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || r.Error.Code != protocol.CodeAppAmbiguous || len(r.Error.Candidates) != 2 {
		t.Fatalf("got %+v", r.Error)
	}
}

// TestDecodeResponseRefusesMalformed breaks one rule of a valid
// observation per case; each must be refused as malformed.
func TestDecodeResponseRefusesMalformed(t *testing.T) {
	cases := map[string]func(r *protocol.Response){
		"no result":              func(r *protocol.Response) { r.Observation = nil },
		"two results":            func(r *protocol.Response) { r.Input = &protocol.InputResult{Via: protocol.ViaAction} },
		"result and error":       func(r *protocol.Response) { r.Error = &protocol.Error{Code: protocol.CodeNoTree, Message: "x."} },
		"repeated ref":           func(r *protocol.Response) { r.Observation.Nodes[2].Ref = "ax2" },
		"ref not axN":            func(r *protocol.Response) { r.Observation.Nodes[0].Ref = "e1" },
		"unknown role":           func(r *protocol.Response) { r.Observation.Nodes[1].Role = "AXButton" },
		"name too long":          func(r *protocol.Response) { r.Observation.Nodes[1].Name = strings.Repeat("x", protocol.MaxNameRunes+1) },
		"name with newline":      func(r *protocol.Response) { r.Observation.Nodes[1].Name = "a\nb" },
		"bidi override":          func(r *protocol.Response) { r.Observation.Nodes[1].Name = "a\u202eb" },
		"secure value shown":     func(r *protocol.Response) { r.Observation.Nodes[3].Value = "hunter2" },
		"depth jumps":            func(r *protocol.Response) { r.Observation.Nodes[1].Depth = 3 },
		"unknown state":          func(r *protocol.Response) { r.Observation.Nodes[1].States = []protocol.State{"hovered"} },
		"repeated state":         func(r *protocol.Response) { r.Observation.Nodes[2].States = []protocol.State{"focused", "focused"} },
		"no locator":             func(r *protocol.Response) { r.Observation.Nodes[1].Locator = "" },
		"bad fingerprint":        func(r *protocol.Response) { r.Observation.Nodes[1].Fingerprint = "e1:zz" },
		"bad window print":       func(r *protocol.Response) { r.Observation.Window.Fingerprint = "w2:0123456789abcdef0123456789abcdef" },
		"no app id":              func(r *protocol.Response) { r.Observation.Window.AppID = "" },
		"empty frame":            func(r *protocol.Response) { r.Observation.Window.Frame.W = 0 },
		"no time":                func(r *protocol.Response) { r.Observation.ObservedAt = time.Time{} },
		"screenshot size lies":   func(r *protocol.Response) { r.Observation.Screenshot.Width = 41 },
		"screenshot format lies": func(r *protocol.Response) { r.Observation.Screenshot.Format = "jpeg" },
		"screenshot not image":   func(r *protocol.Response) { r.Observation.Screenshot.Data = []byte("not a picture") },
		"screenshot no hash":     func(r *protocol.Response) { r.Observation.Screenshot.Hash = "" },
		"screenshot scale":       func(r *protocol.Response) { r.Observation.Screenshot.Scale = 0 },
		"too many nodes": func(r *protocol.Response) {
			n := r.Observation.Nodes[1]
			r.Observation.Nodes = r.Observation.Nodes[:1]
			for i := 2; i <= protocol.MaxNodes+1; i++ {
				n.Ref = "ax" + strconv.Itoa(i)
				r.Observation.Nodes = append(r.Observation.Nodes, n)
			}
		},
		"too much text": func(r *protocol.Response) {
			n := r.Observation.Nodes[1]
			n.Value = strings.Repeat("v", protocol.MaxValueRunes)
			r.Observation.Nodes = r.Observation.Nodes[:1]
			for i := 2; i <= 102; i++ {
				n.Ref = "ax" + strconv.Itoa(i)
				r.Observation.Nodes = append(r.Observation.Nodes, n)
			}
		},
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			r := &protocol.Response{Observation: validObservation(t)}
			breakIt(r)
			_, err := protocol.DecodeResponse(protocol.CallObserve, encode(t, r))
			if protocol.CodeOf(err) != protocol.CodeHelperMalformed {
				t.Fatalf("got %v, want helper_malformed", err)
			}
		})
	}
}

func TestDecodeResponseRefusesBadBytes(t *testing.T) {
	valid := encode(t, &protocol.Response{Input: &protocol.InputResult{Via: protocol.ViaAction}})
	cases := map[string]struct {
		data []byte
		code protocol.Code
	}{
		"empty":         {nil, protocol.CodeHelperMalformed},
		"not an object": {[]byte(`[1,2]`), protocol.CodeHelperMalformed},
		"null":          {[]byte(`null`), protocol.CodeHelperMalformed},
		"truncated":     {valid[:len(valid)-3], protocol.CodeHelperMalformed},
		"trailing data": {append(append([]byte{}, valid...), []byte(` {"v":1}`)...), protocol.CodeHelperMalformed},
		"unknown field": {[]byte(`{"v":1,"input":{"via":"action"},"extra":true}`), protocol.CodeHelperMalformed},
		"unknown code":  {[]byte(`{"v":1,"error":{"code":"made_up","message":"No."}}`), protocol.CodeHelperMalformed},
		"client code":   {[]byte(`{"v":1,"error":{"code":"helper_timeout","message":"No."}}`), protocol.CodeHelperMalformed},
		"no message":    {[]byte(`{"v":1,"error":{"code":"no_tree","message":""}}`), protocol.CodeHelperMalformed},
		"other version": {[]byte(`{"v":2,"input":{"via":"action"}}`), protocol.CodeUnsupportedVersion},
		"unknown via":   {[]byte(`{"v":1,"input":{"via":"telepathy"}}`), protocol.CodeHelperMalformed},
		"oversized":     {bytes.Repeat([]byte(" "), protocol.MaxResponseBytes+1), protocol.CodeHelperOversized},
		"bad base64":    {[]byte(`{"v":1,"observation":{"screenshot":{"data":"!!"}}}`), protocol.CodeHelperMalformed},
		"huge number":   {[]byte(`{"v":1e400}`), protocol.CodeHelperMalformed},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := protocol.DecodeResponse(protocol.CallClick, c.data)
			var e *protocol.Error
			if !errors.As(err, &e) || e.Code != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
		})
	}
}
