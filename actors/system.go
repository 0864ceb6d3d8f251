package actors

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
)

// NewSystem returns an actor system whose own logging goes to log, with the
// library's chatter (dead letters, recoveries we log ourselves) kept at debug.
func NewSystem(log *slog.Logger) *actor.ActorSystem {
	h := &levelShift{inner: log.Handler()}
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(h).With("lib", "protoactor")
	}))
}

// levelShift lowers the library's Info lines to Debug, keeping its warnings.
type levelShift struct{ inner slog.Handler }

func (h *levelShift) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, shift(l))
}

func (h *levelShift) Handle(ctx context.Context, r slog.Record) error {
	r.Level = shift(r.Level)
	return h.inner.Handle(ctx, r)
}

func (h *levelShift) WithAttrs(a []slog.Attr) slog.Handler {
	return &levelShift{inner: h.inner.WithAttrs(a)}
}

func (h *levelShift) WithGroup(name string) slog.Handler {
	return &levelShift{inner: h.inner.WithGroup(name)}
}

func shift(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return slog.LevelDebug
	}
	return l
}
