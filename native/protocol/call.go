package protocol

// Call names what a request asks the helper to do.
type Call string

// The calls. There is no other.
const (
	CallObserve            Call = "observe"             // the focused window of the selected app
	CallClick              Call = "click"               // by ref or by window pixel
	CallFill               Call = "fill"                // type a value into a field
	CallPress              Call = "press"               // one allowed key
	CallOpen               Call = "open"                // bring an app forward, by id or exact name
	CallNavigate           Call = "navigate"            // an ordinary tab in the selected browser app
	CallProbe              Call = "probe"               // what is granted and found; never prompts
	CallRequestPermissions Call = "request_permissions" // ask the OS for what is missing
	CallFind               Call = "find"                // the one installed app with a name; launches nothing
)

// Calls lists every call, in the order above.
var Calls = []Call{CallObserve, CallClick, CallFill, CallPress, CallOpen, CallNavigate, CallProbe, CallRequestPermissions, CallFind}

// Known reports whether c is one of Calls.
func (c Call) Known() bool {
	for _, k := range Calls {
		if c == k {
			return true
		}
	}
	return false
}

// SendsInput reports whether the call may act on the computer, so that a
// failure of unknown extent must be reported as possibly done.
func (c Call) SendsInput() bool {
	switch c {
	case CallClick, CallFill, CallPress, CallOpen, CallNavigate:
		return true
	}
	return false
}
