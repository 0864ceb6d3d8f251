package helper

import (
	"context"

	"github.com/buddi-dev/buddi/native/protocol"
)

// fill replaces the text of an observed field with OS keyboard events. A
// secure field is refused, and so is a value the keyboard cannot type,
// before anything is sent.
func fill(ctx context.Context, p Platform, a *protocol.FillArgs) (*protocol.InputResult, error) {
	w, info, err := guarded(ctx, p, a.Guard)
	if err != nil {
		return nil, err
	}
	el, einfo, err := target(ctx, w, info, &a.Element)
	if err != nil {
		return nil, err
	}
	switch {
	case einfo.Secure:
		return nil, protocol.Errorf(protocol.CodeSecureField, "%s is a password field, which agents never fill; ask the owner to take over and type it.", a.Element.Ref)
	case !einfo.Editable:
		return nil, protocol.Errorf(protocol.CodeNotEditable, "%s takes no typed text; fill a text field, or click the control instead.", a.Element.Ref)
	}
	if err := w.Typable(ctx, a.Value); err != nil {
		return nil, failed(err, protocol.CodeKeyNotAllowed, "The value has characters this keyboard cannot type, so nothing was typed; fill a value in plain characters.")
	}
	if err := el.Focus(ctx); err != nil {
		return nil, uncertain(err)
	}
	if err := stillFocused(ctx, p, info); err != nil {
		return nil, err
	}
	if err := el.Clear(ctx); err != nil {
		return nil, uncertain(err)
	}
	if err := w.Type(ctx, a.Value); err != nil {
		return nil, uncertain(err)
	}
	return &protocol.InputResult{Via: protocol.ViaKeyboard}, nil
}

// press sends one allowed key to the observed window.
func press(ctx context.Context, p Platform, a *protocol.PressArgs) (*protocol.InputResult, error) {
	w, _, err := guarded(ctx, p, a.Guard)
	if err != nil {
		return nil, err
	}
	if err := w.Key(ctx, a.Key); err != nil {
		return nil, uncertain(err)
	}
	return &protocol.InputResult{Via: protocol.ViaKeyboard}, nil
}
