package loadtest

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
)

// Config is one load test. The zero value of every field but Base takes
// the default noted beside it.
type Config struct {
	// Base is the daemon configuration an in-process daemon starts from
	// (browser channel, sandbox); its data dir and address are replaced.
	Base config.Config

	Conversations int           // concurrent conversations; default 100
	Duration      time.Duration // default 30 s
	ThinkMin      time.Duration // think time between acts, drawn uniformly
	ThinkMax      time.Duration // from [ThinkMin, ThinkMax]; default 0–50 ms
	Rate          float64       // total acts per second to aim for; 0 runs each agent as fast as its think time allows
	StaleRate     float64       // fraction of clicks naming stale evidence on purpose; default 0.05 (negative: none)
	OwnerRate     float64       // owner controls per second (take over, release, stop)
	CrashRate     float64       // fraction of completed actions on which the session panics
	Pages         int           // pages of each kind on the simulated site; default 10
	Driver        string        // "sim" (default) or "playwright"
	Target        string        // URL of a running daemon; empty starts one in-process
	OwnerToken    string        // the target's owner token
	Hands         int           // remote hands driving conversations of their own (in-process only)
	LinkKbps      int           // the hands' link, kilobits a second downstream; 0 is loopback
	Idle          int           // when > 0, the idle test: start, observe and release this many sessions
	IdleRounds    int           // how many times the idle test runs in the same daemon; default 1
	Timeout       time.Duration // per request; default 30 s
	// Pipeline, when > 0, carries the agents' acts to each daemon over
	// that many connections, pipelined (apiclient.WithPipeline), instead of
	// a kept-alive connection per agent.
	Pipeline int
	Seed     uint64 // seeds the agents' choices; 0 picks one
	// IdleSettle is how long an idle round waits after its prune before
	// it weighs the heap; 0 waits until the ledger forgot the round's
	// write orders (ledger.OrderLife and a pruning round), negative not
	// at all (for a test that weighs only the store).
	IdleSettle time.Duration
	// Members are the other members of Target's cluster, and MemberTokens
	// their owner tokens in the same order. The owner's controls go
	// through Target; each agent's calls go through Target and the
	// Members round-robin by conversation (see members.go).
	Members      []string
	MemberTokens []string
	// MemProfile, when set, is where heap profiles are written as each
	// memory sample is taken: MemProfile+".quarter" and MemProfile+".end".
	MemProfile string

	// Progress receives the live progress line; TTY rewrites it in place.
	Progress io.Writer
	TTY      bool
	// AuditBytes bounds one file of the in-process daemon's audit trail
	// (four rotated files are kept beside it); 0 takes buddi's default.
	AuditBytes int64

	// Log receives the in-process daemon's warnings; nil discards them.
	Log *slog.Logger
}

// MaxPlaywright is how many conversations one real browser profile holds.
const MaxPlaywright = drivers.PerProfile

// ErrConfig marks a configuration the load test refuses; the text says why.
var ErrConfig = errors.New("loadtest")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
}

// withDefaults fills zero fields and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Conversations == 0 {
		c.Conversations = 100
	}
	if c.Duration == 0 {
		c.Duration = 30 * time.Second
	}
	if c.ThinkMax == 0 && c.ThinkMin == 0 {
		c.ThinkMax = 50 * time.Millisecond
	}
	if c.StaleRate == 0 {
		c.StaleRate = 0.05
	}
	c.StaleRate = max(c.StaleRate, 0)
	if c.Pages == 0 {
		c.Pages = 10
	}
	if c.Driver == "" {
		c.Driver = "sim"
	}
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	return c, c.check()
}

func (c Config) check() error {
	switch {
	case c.Hands < 0:
		return refuse("--hands %d is negative", c.Hands)
	case c.Hands > 0 && c.Target != "":
		return refuse("--hands needs the in-process buddi (no --target): the hands sign in to its dashboard through it")
	case c.LinkKbps < 0:
		return refuse("--link-kbps %d is negative", c.LinkKbps)
	case c.Conversations < 1 && c.Idle == 0:
		return refuse("--conversations must be at least 1")
	case c.Idle < 0:
		return refuse("--idle %d is negative", c.Idle)
	case c.IdleRounds < 0 || c.IdleRounds > 100:
		return refuse("--idle-rounds %d is out of range; use 1 to 100", c.IdleRounds)
	case c.Pipeline < 0 || c.Pipeline > 1024:
		return refuse("--pipeline %d is out of range; use 0 (a connection per agent) to 1024", c.Pipeline)
	case c.Pages < 1 || c.Pages > 1000:
		return refuse("--pages %d is out of range; use 1 to 1000", c.Pages)
	}
	if err := c.checkPace(); err != nil {
		return err
	}
	return c.checkTarget()
}

func (c Config) checkPace() error {
	switch {
	case c.Duration < 0:
		return refuse("--duration %s is negative", c.Duration)
	case c.ThinkMin < 0 || c.ThinkMax < c.ThinkMin:
		return refuse("--think %s-%s is not a range from a smaller to a larger duration", c.ThinkMin, c.ThinkMax)
	case c.Rate < 0 || c.OwnerRate < 0:
		return refuse("rates cannot be negative")
	case c.CrashRate < 0 || c.CrashRate > 0.5:
		return refuse("--crash-rate %g is out of range; use 0 to 0.5", c.CrashRate)
	case c.StaleRate > 1:
		return refuse("--stale-rate %g is above 1", c.StaleRate)
	}
	return nil
}

func (c Config) checkTarget() error {
	switch c.Driver {
	case "sim":
	case "playwright":
		if c.Conversations > MaxPlaywright {
			return refuse("--driver playwright runs one real browser profile of %d sessions; use --conversations %d or fewer", MaxPlaywright, MaxPlaywright)
		}
		if c.Idle > MaxPlaywright {
			return refuse("--idle with --driver playwright holds at most %d sessions", MaxPlaywright)
		}
	default:
		return refuse("--driver %q is not known; use sim or playwright", c.Driver)
	}
	if c.Target == "" {
		if len(c.Members) > 0 {
			return refuse("the members of a cluster need a first --target to take the owner's controls")
		}
		return nil
	}
	if err := c.checkMembers(); err != nil {
		return err
	}
	switch {
	case c.CrashRate > 0:
		return refuse("--crash-rate needs the in-process daemon: a running buddi has no fault hook; drop --target or the crash rate")
	case c.OwnerToken == "":
		return refuse("--target needs the owner token: pass --owner-token, or --data with the target's data directory")
	}
	return nil
}

// checkMembers checks the members of a cluster beside the target.
func (c Config) checkMembers() error {
	if len(c.MemberTokens) != len(c.Members) {
		return refuse("%d targets need %d owner tokens, one per target in the same order (each member has its own), not %d",
			len(c.Members)+1, len(c.Members)+1, len(c.MemberTokens)+1)
	}
	seen := map[string]bool{c.Target: true}
	for i, m := range c.Members {
		switch {
		case m == "":
			return refuse("target %d of the cluster is empty", i+2)
		case seen[m]:
			return refuse("--target %s is named twice; name each member of the cluster once", m)
		case c.MemberTokens[i] == "":
			return refuse("the owner token of %s is empty", m)
		}
		seen[m] = true
	}
	return nil
}
