package actors

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	cmap "github.com/orcaman/concurrent-map"
)

// NewSystem returns an actor system whose own logging goes to log, with the
// library's chatter (dead letters, recoveries we log ourselves) kept at debug.
func NewSystem(log *slog.Logger) *actor.ActorSystem {
	h := &levelShift{inner: log.Handler()}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(h).With("lib", "protoactor")
	}))
	CompactRegistry(sys)
	return sys
}

// registryBuckets is how many maps of shards the system's registry of
// processes has here: protoactor makes 1,024 of 32 shards each, and every
// process name (a session's, a future's) lands in one of those 32,768 maps,
// so a daemon that has run for a while keeps all of them grown, about
// 12 MB the collector scans at every cycle, whatever the load. Sixteen
// keep 512 shards, each its own lock, for a few thousand processes.
const registryBuckets = 16

// CompactRegistry gives sys, just made, a registry of registryBuckets
// maps, with the processes the system registered as it was made. Nothing
// else may have sys yet.
func CompactRegistry(sys *actor.ActorSystem) {
	reg := sys.ProcessRegistry
	small := &actor.SliceMap{LocalPIDs: make([]cmap.ConcurrentMap, registryBuckets)}
	for i := range small.LocalPIDs {
		small.LocalPIDs[i] = cmap.New()
	}
	for _, bucket := range reg.LocalPIDs.LocalPIDs {
		for id, p := range bucket.Items() {
			small.GetBucket(id).Set(id, p)
		}
	}
	reg.LocalPIDs = small
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
