package native

import (
	"context"
	"log/slog"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Config is what the mode needs: the helper and the owner's choices.
type Config struct {
	// Helper is the path of the native helper executable.
	Helper string
	// Env is the helper's environment; nil means buddi's own.
	Env []string
	// Apps reads the owner's browser app and allowed apps as they are now.
	Apps func() Apps
	// CheckURL applies the URL rules to an explicit navigate; nil allows
	// every absolute http or https URL the helper accepts.
	CheckURL func(url string) error
	// Approve decides an open of an app that is not on the allowed list
	// (the owner's card). Nil refuses every such app.
	Approve func(ctx context.Context, conversation string, app protocol.App) error
	// Lock is the desktop lock: a conversation must hold it for every call,
	// and gives it back when its tabs close. Nil lets every conversation in.
	Lock Lock
	// Timeout bounds each helper call; nil uses the protocol's defaults.
	Timeout func(*protocol.Request) time.Duration
	Logger  *slog.Logger
}

// Apps is the owner's choice of apps: the browser app navigate opens tabs
// in, and the apps open may bring forward, by id.
type Apps struct {
	Browser string
	Allowed []string
}

// Allows reports whether id is the browser app or on the allowed list.
func (a Apps) Allows(id string) bool {
	if id == a.Browser {
		return true
	}
	for _, x := range a.Allowed {
		if x == id {
			return true
		}
	}
	return false
}

func (c Config) apps() Apps {
	if c.Apps == nil {
		return Apps{}
	}
	return c.Apps()
}

func (c Config) client() *protocol.Client {
	return &protocol.Client{Path: c.Helper, Env: c.Env, Timeout: c.Timeout, Logger: c.Logger}
}

// Lock is the desktop lock as the driver uses it (actors/desktop behind
// it in the daemon).
type Lock interface {
	// Acquire takes or renews the lock for conversation, or says why not.
	Acquire(ctx context.Context, conversation string) error
	// Release gives the lock back if conversation holds it, returning once
	// the lock has taken it in (bounded by ctx).
	Release(ctx context.Context, conversation string)
}
