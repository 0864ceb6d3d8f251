package drivers

import "context"

// Inputs are the actions that put input on a page: the table's mutating
// ones. Each checks its Target (when it takes one) still names the element
// observed before any input.
type Inputs interface {
	Click(ctx context.Context, a *Action) (*Outcome, error)
	// Fill types a.Value: fill and secret_fill (a.Kind says which; a
	// secret goes only into a field of one of a.Origins).
	Fill(ctx context.Context, a *Action) (*Outcome, error)
	Select(ctx context.Context, a *Action) (*Outcome, error)
	Press(ctx context.Context, a *Action) (*Outcome, error)
	Hover(ctx context.Context, a *Action) (*Outcome, error)
	Scroll(ctx context.Context, a *Action) (*Outcome, error)
	Submit(ctx context.Context, a *Action) (*Outcome, error)
}

// Pages are the actions that move between or read a conversation's pages.
type Pages interface {
	Navigate(ctx context.Context, a *Action) (*Outcome, error)
	// History goes back or forward (a.Kind says which).
	History(ctx context.Context, a *Action) (*Outcome, error)
	// Tab lists, opens, switches or closes tabs (a.TabOp says which).
	Tab(ctx context.Context, a *Action) (*Outcome, error)
	WaitFor(ctx context.Context, a *Action) (*Outcome, error)
	DOM(ctx context.Context, a *Action) (*Outcome, error)
	Console(ctx context.Context, a *Action) (*Outcome, error)
	Screenshot(ctx context.Context, a *Action) (*Outcome, error)
}

// Actions is what Dispatch drives: a method for each action a driver
// performs. A mode without one answers with its own coded refusal from
// that method. Open is not here: Dispatch sends it to an AppOpener and
// refuses it with ErrNoApps otherwise.
type Actions interface {
	Inputs
	Pages
}

// driven is a driver as Dispatch drives it: its actions, and open, which
// is its own where it opens apps (computer mode) and refused otherwise.
type driven struct{ Actions }

func (d driven) Open(ctx context.Context, a *Action) (*Outcome, error) {
	if o, ok := d.Actions.(AppOpener); ok {
		return o.OpenApp(ctx, a)
	}
	return nil, ErrNoApps()
}

// method is how Dispatch reaches the driver for one kind.
type method func(driven, context.Context, *Action) (*Outcome, error)

// methods maps every Kind to the one method that performs it; a test
// checks it covers Kinds.
var methods = map[Kind]method{
	Click:      driven.Click,
	Fill:       driven.Fill,
	SecretFill: driven.Fill,
	Select:     driven.Select,
	Press:      driven.Press,
	Hover:      driven.Hover,
	Scroll:     driven.Scroll,
	Submit:     driven.Submit,
	Navigate:   driven.Navigate,
	Back:       driven.History,
	Forward:    driven.History,
	TabAction:  driven.Tab,
	WaitFor:    driven.WaitFor,
	DOM:        driven.DOM,
	Console:    driven.Console,
	Screenshot: driven.Screenshot,
	Open:       driven.Open,
}

// Dispatch performs a on impl by its kind: the one place an action's kind
// picks what a driver does. A driver's Do keeps its own work around the
// call (locks, bounds, what a failure means) and calls it.
func Dispatch(ctx context.Context, impl Actions, a *Action) (*Outcome, error) {
	if a == nil {
		return nil, Errorf(CodeBadInput, nil, "No action was given.")
	}
	m, ok := methods[a.Kind]
	if !ok {
		return nil, ErrUnknownAction(a.Kind)
	}
	return m(driven{impl}, ctx, a)
}

// ErrUnknownAction refuses a kind no driver performs.
func ErrUnknownAction(k Kind) *Error {
	return Errorf(CodeBadInput, nil, "Unknown action %s.", k)
}
