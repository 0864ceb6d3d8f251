package protocol

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // screenshots may be JPEG
	_ "image/png"  // or PNG
	"unicode/utf8"
)

// validate checks a response to call c. It returns a description of the
// first problem, for the malformed-answer error's detail.
func (r *Response) validate(c Call) string {
	results := map[Call]bool{CallObserve: r.Observation != nil, CallClick: r.Input != nil,
		CallFill: r.Input != nil, CallPress: r.Input != nil, CallOpen: r.Opened != nil,
		CallNavigate: r.Navigated != nil, CallProbe: r.Permissions != nil, CallRequestPermissions: r.Permissions != nil,
		CallFind: r.Found != nil}
	n := 0
	for _, set := range []bool{r.Error != nil, r.Observation != nil, r.Input != nil, r.Opened != nil, r.Navigated != nil, r.Permissions != nil, r.Found != nil} {
		if set {
			n++
		}
	}
	if n != 1 || (r.Error == nil && !results[c]) {
		return fmt.Sprintf("a %s answer must carry exactly an error or its own result", c)
	}
	return r.validateResult()
}

// validateResult checks the one result (or error) a response carries.
func (r *Response) validateResult() string {
	switch {
	case r.Error != nil:
		return r.Error.validate()
	case r.Observation != nil:
		return r.Observation.validate()
	case r.Input != nil:
		if v := r.Input.Via; v != ViaAction && v != ViaPointer && v != ViaKeyboard {
			return fmt.Sprintf("unknown input method %q", v)
		}
	case r.Opened != nil:
		if p := r.Opened.App.validate(); p != "" {
			return p
		}
		return r.Opened.Window.validate(true)
	case r.Navigated != nil:
		if p := r.Navigated.Browser.validate(); p != "" {
			return p
		}
		if CheckURL(r.Navigated.URL) != nil {
			return "the navigated URL is not an http or https URL"
		}
	case r.Permissions != nil:
		return r.Permissions.validate()
	case r.Found != nil:
		return r.Found.validate()
	}
	return ""
}

func (e *Error) validate() string {
	switch {
	case !HelperCode(e.Code):
		return fmt.Sprintf("unknown error code %q", e.Code)
	case e.Message == "" || !clean(e.Message, MaxMessageRunes):
		return "the error message is empty, too long or not one line"
	case !clean(e.Detail, MaxDetailRunes):
		return "the error detail is too long or not one line"
	case len(e.Candidates) > MaxCandidates:
		return "too many candidates"
	}
	for i := range e.Candidates {
		if p := e.Candidates[i].validate(); p != "" {
			return p
		}
	}
	if e.Window != nil {
		return e.Window.validate(false)
	}
	return ""
}

func (a *App) validate() string {
	if !ValidAppID(a.ID) || !clean(a.Name, MaxNameRunes) || len(a.Path) > 4096 || !utf8.ValidString(a.Path) {
		return "an app's id, name or path is malformed"
	}
	return ""
}

// validate checks a window; strict requires its app to be known.
func (w *Window) validate(strict bool) string {
	switch {
	case w.ID == "" || len(w.ID) > MaxIDBytes || !clean(w.ID, MaxIDBytes):
		return "the window id is empty or malformed"
	case !clean(w.Title, MaxNameRunes) || !clean(w.AppName, MaxNameRunes):
		return "the window title or app name is too long or not one line"
	case (strict || w.AppID != "") && !ValidAppID(w.AppID):
		return "the window's app id is malformed"
	case w.PID < 0 || w.Frame.W <= 0 || w.Frame.H <= 0 || w.Frame.W > 1<<16 || w.Frame.H > 1<<16:
		return "the window's pid or frame is out of range"
	case !windowFPPattern.MatchString(w.Fingerprint):
		return "the window fingerprint is malformed"
	}
	return ""
}

func (o *Observation) validate() string {
	if o.ObservedAt.IsZero() {
		return "the observation has no time"
	}
	if p := o.Window.validate(true); p != "" {
		return p
	}
	if len(o.Nodes) > MaxNodes {
		return fmt.Sprintf("%d nodes, more than %d", len(o.Nodes), MaxNodes)
	}
	text := 0
	for i := range o.Nodes {
		prev := -1
		if i > 0 {
			prev = o.Nodes[i-1].Depth
		}
		if p := o.Nodes[i].validate(i, prev); p != "" {
			return p
		}
		text += len(o.Nodes[i].Name) + len(o.Nodes[i].Value)
	}
	if text > MaxTextBytes {
		return fmt.Sprintf("%d bytes of text, more than %d", text, MaxTextBytes)
	}
	return o.Screenshot.validate()
}

func (n *Node) validate(i, prevDepth int) string {
	switch {
	case n.Ref != fmt.Sprintf("ax%d", i+1):
		return fmt.Sprintf("node %d has ref %q, not ax%d", i, n.Ref, i+1)
	case !Roles[n.Role]:
		return fmt.Sprintf("%s has unknown role %q", n.Ref, n.Role)
	case !clean(n.Name, MaxNameRunes) || !clean(n.Value, MaxValueRunes):
		return fmt.Sprintf("%s has a name or value that is too long or not one line", n.Ref)
	case n.Secure && n.Value != "":
		return fmt.Sprintf("%s is a secure field with its value shown", n.Ref)
	case n.Depth < 0 || n.Depth > MaxDepth || n.Depth > prevDepth+1:
		return fmt.Sprintf("%s has depth %d after depth %d", n.Ref, n.Depth, prevDepth)
	}
	return n.validatePlace()
}

// validatePlace checks where a node is and how it is found again.
func (n *Node) validatePlace() string {
	switch {
	case n.Box.W < 0 || n.Box.H < 0 || n.Box.W > 1<<16 || n.Box.H > 1<<16 || abs(n.Box.X) > 1<<16 || abs(n.Box.Y) > 1<<16:
		return fmt.Sprintf("%s has a box out of range", n.Ref)
	case n.Locator == "" || len(n.Locator) > MaxLocatorBytes || !utf8.ValidString(n.Locator):
		return fmt.Sprintf("%s has a missing or oversized locator", n.Ref)
	case !elementFPPattern.MatchString(n.Fingerprint):
		return fmt.Sprintf("%s has a malformed fingerprint", n.Ref)
	}
	seen := map[State]bool{}
	for _, s := range n.States {
		if !knownStates[s] || seen[s] {
			return fmt.Sprintf("%s has an unknown or repeated state %q", n.Ref, s)
		}
		seen[s] = true
	}
	return ""
}

func (s *Screenshot) validate() string {
	switch {
	case s.Format != "png" && s.Format != "jpeg":
		return fmt.Sprintf("screenshot format %q", s.Format)
	case len(s.Data) == 0 || len(s.Data) > MaxScreenshotBytes:
		return fmt.Sprintf("a screenshot of %d bytes", len(s.Data))
	case !sideOK(s.Width) || !sideOK(s.Height):
		return "the screenshot's size is out of range"
	case !(s.Scale > 0 && s.Scale <= MaxScale):
		return "the screenshot's scale is out of range"
	case !screenshotPattern.MatchString(s.Hash):
		return "the screenshot hash is malformed"
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(s.Data))
	if err != nil || format != s.Format || cfg.Width != s.Width || cfg.Height != s.Height {
		return "the screenshot's bytes do not match its format and size"
	}
	return ""
}

func (p *Permissions) validate() string {
	if !platformPattern.MatchString(p.Platform) || len(p.Checks) == 0 || len(p.Checks) > MaxChecks {
		return "the permissions answer has no platform or a wrong number of checks"
	}
	for _, c := range p.Checks {
		if !checkNamePattern.MatchString(c.Name) || c.Detail == "" || !clean(c.Detail, MaxMessageRunes) {
			return "a permission check is malformed"
		}
		if p.Ready && !c.OK {
			return "ready although a check failed"
		}
	}
	return ""
}

func sideOK(n int) bool { return n > 0 && n <= MaxScreenshotSide }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
