package protocol

import (
	"regexp"
	"unicode/utf8"
)

var (
	refPattern        = regexp.MustCompile(`^ax[1-9][0-9]{0,5}$`)
	windowFPPattern   = regexp.MustCompile(`^w1:[0-9a-f]{32}$`)
	elementFPPattern  = regexp.MustCompile(`^e1:[0-9a-f]{32}$`)
	screenshotPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	appIDPattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,254}$`)
	checkNamePattern  = regexp.MustCompile(`^[a-z][a-z_]{0,31}$`)
	platformPattern   = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
)

// ValidAppID reports whether id has the shape of an app id: letters, digits
// and . _ + -, as bundle ids and desktop file ids are written.
func ValidAppID(id string) bool { return appIDPattern.MatchString(id) }

// Validate checks a request the way a helper must before acting on it.
func (r *Request) Validate() *Error {
	if r.V != Version {
		return Errorf(CodeUnsupportedVersion, "buddi speaks protocol version %d and this helper %d; install the helper that came with this buddi.", r.V, Version)
	}
	if !r.Call.Known() {
		return Errorf(CodeBadRequest, "%q is not a call the helper knows.", r.Call)
	}
	if r.TimeoutMS <= 0 || r.TimeoutMS > 120_000 {
		return Errorf(CodeBadRequest, "The timeout must be between 1 ms and two minutes.")
	}
	if got, want := r.argCount(), r.wantsArgs(); got != want {
		return Errorf(CodeBadRequest, "A %s request must carry exactly its own arguments.", r.Call)
	}
	return r.validateArgs()
}

// validateArgs checks the arguments of the request's call.
func (r *Request) validateArgs() *Error {
	switch r.Call {
	case CallObserve:
		return checkApp(r.Observe.App)
	case CallClick:
		return r.Click.validate()
	case CallFill:
		return r.Fill.validate()
	case CallPress:
		if err := r.Press.validate(); err != nil {
			return err
		}
		if !KeyAllowed(r.Press.Key) {
			return keyError(r.Press.Key)
		}
	case CallOpen:
		return r.Open.validate()
	case CallFind:
		return CheckAppName(r.Find.Name)
	case CallNavigate:
		if err := checkApp(r.Navigate.Browser); err != nil {
			return err
		}
		return CheckURL(r.Navigate.URL)
	}
	return nil
}

func (r *Request) argCount() int {
	n := 0
	for _, set := range []bool{r.Observe != nil, r.Click != nil, r.Fill != nil, r.Press != nil, r.Open != nil, r.Navigate != nil, r.Find != nil} {
		if set {
			n++
		}
	}
	return n
}

func (r *Request) wantsArgs() int {
	has := map[Call]bool{CallObserve: r.Observe != nil, CallClick: r.Click != nil, CallFill: r.Fill != nil,
		CallPress: r.Press != nil, CallOpen: r.Open != nil, CallNavigate: r.Navigate != nil,
		CallFind: r.Find != nil}
	if _, takes := has[r.Call]; !takes {
		return 0
	}
	if !has[r.Call] {
		return -1
	}
	return 1
}

func checkApp(id string) *Error {
	if !ValidAppID(id) {
		return Errorf(CodeBadRequest, "%q is not an app id; give an id such as com.apple.calculator or org.gnome.Calculator.", id)
	}
	return nil
}

func (g *Guard) validate() *Error {
	if err := checkApp(g.App); err != nil {
		return err
	}
	if !windowFPPattern.MatchString(g.Window) {
		return Errorf(CodeBadRequest, "The window fingerprint is missing or malformed; observe again and use the new observation.")
	}
	return nil
}

func (t *ElementTarget) validate() *Error {
	if !refPattern.MatchString(t.Ref) || !elementFPPattern.MatchString(t.Fingerprint) ||
		t.Locator == "" || len(t.Locator) > MaxLocatorBytes || !utf8.ValidString(t.Locator) {
		return Errorf(CodeBadRequest, "The target is not a ref from an observation; observe again and use a ref such as ax12.")
	}
	return nil
}

func (c *ClickArgs) validate() *Error {
	if err := c.Guard.validate(); err != nil {
		return err
	}
	switch {
	case (c.Element == nil) == (c.Point == nil):
		return Errorf(CodeBadRequest, "A click needs exactly one target: a ref or a pixel.")
	case c.Element != nil:
		return c.Element.validate()
	}
	p := c.Point
	if !screenshotPattern.MatchString(p.Screenshot) || !(p.Scale > 0 && p.Scale <= MaxScale) {
		return Errorf(CodeBadRequest, "A pixel click needs the screenshot hash and scale of the observation; observe again.")
	}
	if p.X < 0 || p.Y < 0 || p.X >= MaxScreenshotSide || p.Y >= MaxScreenshotSide {
		return Errorf(CodeOutsideWindow, "The pixel (%d, %d) is outside the window's screenshot; pick a point inside it.", p.X, p.Y)
	}
	return nil
}

func (f *FillArgs) validate() *Error {
	if err := f.Guard.validate(); err != nil {
		return err
	}
	if err := f.Element.validate(); err != nil {
		return err
	}
	return CheckFillValue(f.Value)
}

func (o *OpenArgs) validate() *Error {
	switch {
	case (o.ID == "") == (o.Name == ""):
		return Errorf(CodeBadRequest, "open needs exactly one of an app id or an app name.")
	case o.ID != "":
		return checkApp(o.ID)
	}
	return CheckAppName(o.Name)
}

// CheckAppName refuses an app name that is empty, too long or not plain
// text.
func CheckAppName(name string) *Error {
	if !clean(name, MaxNameRunes) || name == "" {
		return Errorf(CodeBadRequest, "The app name must be plain text of at most %d characters.", MaxNameRunes)
	}
	return nil
}
