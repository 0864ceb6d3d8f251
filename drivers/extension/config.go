package extension

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// Name is the mode's name, as settings and browser.status say it.
const Name = "extension"

// Caller sends one command to the connected extension and returns its
// result: the daemon's extension connection (extconn.Call). A command the
// extension cannot run comes back as an error with a code; with no
// extension connected, messages.CodeBrowserOffline.
type Caller interface {
	Call(ctx context.Context, method string, params any) (json.RawMessage, *messages.Error)
}

// Field is what CheckField sees of an input before text goes into it.
type Field = walker.Field

// Config is what the driver needs; Caller is required.
type Config struct {
	Caller Caller
	// CheckURL is asked about every document a tab is sent to, before
	// Page.navigate and again where a load or a click landed; an error
	// refuses (its code kept when it carries one).
	CheckURL func(raw string) error
	// OnRefused, when set, is told of every page a tab reached that
	// CheckURL refused (a redirect, a link a click followed), with the
	// conversation and the refusal, for the owner's record.
	OnRefused func(conversation, url string, err error)
	// CheckField is asked before text goes into a field; an error refuses.
	CheckField func(f Field, value string) error
	// FieldRules are the credential rules (egress.CredentialRules as JSON)
	// the engine masks values by; nil masks only password fields.
	FieldRules json.RawMessage
	Logger     *slog.Logger
}

// Connection is an optional capability of a Caller: whether the extension
// is connected now, known without asking it.
type Connection interface {
	Online() bool
}

// Listener is an optional capability of a Caller: hearing what happens in
// the agents' tabs the extension was asked to watch (screencast frames,
// navigations, a tab gone), and "dropped" when the connection goes. fn
// must not block.
type Listener interface {
	Listen(fn func(*extwire.Event)) (stop func(), err error)
}
