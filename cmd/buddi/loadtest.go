package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/loadtest"
)

func init() {
	register(&command{name: "loadtest", summary: "drive many simulated agent conversations through the HTTP API and check buddi's invariants", run: loadTest})
}

// loadTestFlags are the load test's own flags beside --data and --addr.
type loadTestFlags struct {
	cfg        loadtest.Config
	think      string
	jsonOut    bool
	htmlOut    string
	cpuProfile string
	tracePath  string
	daemonLog  string
	targets    listFlag // --target, repeated or comma-separated: the members of one cluster
	tokens     listFlag // --owner-token, one per target in the same order
}

// listFlag is a flag given several times, or once with commas.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		*l = append(*l, strings.TrimSpace(s))
	}
	return nil
}

func loadTest(e *env, args []string) int {
	f := newFlags(e, "loadtest")
	lf := defineLoadTestFlags(f)
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	cfg, err := lf.config(f)
	if err != nil {
		return usageFail(e, "loadtest", err.Error())
	}
	tuneGC(e, daemonGC)
	tuneProcs(e)
	if lf.daemonLog != "" {
		fh, err := os.Create(lf.daemonLog)
		if err != nil {
			return fail(e, "loadtest", "the daemon log %s cannot be written: %s", lf.daemonLog, err)
		}
		defer fh.Close()
		cfg.Log = newLogger(&env{stderr: fh}, f.cfg.LogLevel)
	}
	if lf.cpuProfile != "" {
		stop, err := startCPUProfile(lf.cpuProfile)
		if err != nil {
			return fail(e, "loadtest", "%s", err)
		}
		defer stop()
	}
	if lf.tracePath != "" {
		stop, err := startTrace(lf.tracePath)
		if err != nil {
			return fail(e, "loadtest", "%s", err)
		}
		defer stop()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	rep, err := loadtest.Run(ctx, cfg)
	switch {
	case errors.Is(err, loadtest.ErrConfig):
		return usageFail(e, "loadtest", strings.TrimPrefix(err.Error(), "loadtest: ")+".")
	case err != nil:
		return fail(e, "loadtest", "the run could not start: %s", err)
	}
	if err := writeReport(e.stdout, rep, lf.jsonOut); err != nil {
		return fail(e, "loadtest", "%s", err)
	}
	if lf.htmlOut != "" {
		if err := writeHTML(lf.htmlOut, rep); err != nil {
			return fail(e, "loadtest", "%s", err)
		}
	}
	if !rep.Passed() {
		fmt.Fprintln(e.stderr, "buddi loadtest: an invariant broke; see the table above.")
		return exitFail
	}
	return exitOK
}

func defineLoadTestFlags(f *flags) *loadTestFlags {
	lf := &loadTestFlags{}
	c := &lf.cfg
	f.IntVar(&c.Conversations, "conversations", 100, "concurrent simulated conversations (at most 8 with --driver playwright)")
	f.DurationVar(&c.Duration, "duration", 30*time.Second, "how long to drive them")
	f.StringVar(&lf.think, "think", "0-50ms", "think time between one agent's acts: a duration or a MIN-MAX range drawn uniformly")
	f.Float64Var(&c.Rate, "rate", 0, "total acts per second to pace the agents to; 0 lets each act as soon as it has thought")
	f.Float64Var(&c.StaleRate, "stale-rate", 0.05, "fraction of clicks that name an old observation or an unknown ref on purpose")
	f.Float64Var(&c.OwnerRate, "owner-rate", 1, "owner controls per second: take over and resume, release, stop all and resume all")
	f.Float64Var(&c.CrashRate, "crash-rate", 0, "fraction of actions on which the session actor panics as the action completes (in-process only)")
	f.StringVar(&c.Driver, "driver", "sim", "sim, or playwright for real Chromium (then at most 8 conversations)")
	f.Var(&lf.targets, "target", "URL of a running buddi (started with BUDDI_DRIVER=sim) instead of one in-process; give it several times (or comma-separated) for the members of one cluster: the owner's controls go through the first, each conversation's agent calls through one of them in turn")
	f.Var(&lf.tokens, "owner-token", "the target's owner token (default: the owner-token file in --data); with several targets, each member's own, given in the same order as --target")
	f.IntVar(&c.Hands, "hands", 0, "remote hands, each driving a taken-over page of its own from a simulated dashboard tab")
	f.IntVar(&c.LinkKbps, "link-kbps", 0, "the simulated link of each remote hand, in kbit/s")
	f.IntVar(&c.Idle, "idle", 0, "instead of the load: start this many sessions, observe each once, measure the heap per idle session, then release them all")
	f.IntVar(&c.IdleRounds, "idle-rounds", 1, "with --idle: run the idle test this many times in the same daemon, each with new conversations (with a short BUDDI_RETENTION, to see nothing accumulates)")
	f.IntVar(&c.Pages, "pages", 10, "pages of each kind on the simulated site (one copy, shared by every profile)")
	f.Uint64Var(&c.Seed, "seed", 0, "seed for the agents' choices (0 picks one)")
	f.DurationVar(&c.Timeout, "timeout", 30*time.Second, "deadline of each request")
	f.IntVar(&c.Pipeline, "pipeline", 0, "carry the agents' acts over this many connections to each daemon, pipelined (HTTP/1.1), instead of a kept-alive connection per agent (0)")
	f.BoolVar(&lf.jsonOut, "json", false, "print the report as JSON instead of a table")
	f.StringVar(&lf.htmlOut, "report", "", "also write the report as one self-contained HTML page with plots over time to this file")
	f.StringVar(&lf.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (harness and in-process daemon) to this file")
	f.StringVar(&lf.tracePath, "trace", "", "write a runtime execution trace of the whole run to this file (read it with go tool trace; about 20 MB a second at 10,000 acts/s)")
	f.StringVar(&c.MemProfile, "memprofile", "", "write heap profiles to FILE.quarter and FILE.end as memory is sampled (with --idle: FILE.base, then FILE.round1, FILE.round2, … after each round's release)")
	f.StringVar(&lf.daemonLog, "daemon-log", "", "write the in-process daemon's log (at BUDDI_LOG_LEVEL) to this file; by default only its warnings are counted")
	return lf
}

// config completes the load test's configuration from the parsed flags.
func (lf *loadTestFlags) config(f *flags) (loadtest.Config, error) {
	c := lf.cfg
	c.Base = f.cfg
	lo, hi, err := thinkRange(lf.think)
	if err != nil {
		return c, err
	}
	c.ThinkMin, c.ThinkMax = lo, hi
	if c.StaleRate == 0 {
		c.StaleRate = -1 // the flag's 0 means none; the library's 0 means its default
	}
	if err := lf.members(&c, f.cfg.DataDir); err != nil {
		return c, err
	}
	c.Progress = f.e.stderr
	c.TTY = isTerminal(f.e.stderr)
	return c, nil
}

// members fills the target, the other members of its cluster and their
// owner tokens from --target and --owner-token.
func (lf *loadTestFlags) members(c *loadtest.Config, dataDir string) error {
	targets, tokens := lf.targets, lf.tokens
	if slices.Contains(targets, "") {
		return fmt.Errorf("--target %q names an empty target; give each member's URL, such as http://127.0.0.1:7777", targets.String())
	}
	if slices.Contains(tokens, "") {
		return fmt.Errorf("--owner-token %q has an empty token; give each member's owner token", tokens.String())
	}
	switch {
	case len(targets) == 0 && len(tokens) > 0:
		return errors.New("--owner-token needs --target: the in-process buddi makes its own token")
	case len(targets) == 0:
		return nil
	case len(tokens) > len(targets):
		return fmt.Errorf("--owner-token gives %d tokens but --target names %d; give one owner token per target, in the same order", len(tokens), len(targets))
	case len(targets) > 1 && len(tokens) < len(targets):
		return fmt.Errorf("--target names %d members of a cluster but --owner-token gives %d tokens; each member has its own owner token (the owner-token file in its data directory): give one per target, in the same order", len(targets), len(tokens))
	}
	c.Target, c.Members = targets[0], targets[1:]
	if len(tokens) == 0 {
		token, err := instance.ReadOwnerToken(dataDir)
		if err != nil {
			return fmt.Errorf("--target needs the owner token: pass --owner-token, or --data with the target's data directory (%s has none)", dataDir)
		}
		tokens = listFlag{token}
	}
	c.OwnerToken, c.MemberTokens = tokens[0], tokens[1:]
	return nil
}

// thinkRange reads "50ms", "10ms-200ms" or "10-200ms".
func thinkRange(s string) (time.Duration, time.Duration, error) {
	lo, hi, found := strings.Cut(s, "-")
	lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
	if found && strings.Trim(lo, "0123456789.") == "" {
		lo += strings.TrimLeft(hi, "0123456789.") // "10-200ms": the unit is said once
	}
	a, err := time.ParseDuration(lo)
	if err != nil {
		return 0, 0, fmt.Errorf("--think %q is not a duration or a range such as 0-50ms", s)
	}
	if !found {
		return a, a, nil
	}
	b, err := time.ParseDuration(hi)
	if err != nil || b < a {
		return 0, 0, fmt.Errorf("--think %q is not a range from a shorter to a longer duration, such as 0-50ms", s)
	}
	return a, b, nil
}

func writeReport(w io.Writer, rep *loadtest.Report, asJSON bool) error {
	if !asJSON {
		return rep.WriteTable(w)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeHTML writes the report's page to path.
func writeHTML(path string, rep *loadtest.Report) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("the report %s cannot be written: %w", path, err)
	}
	err = rep.WriteHTML(fh)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("the report %s cannot be written: %w", path, err)
	}
	return nil
}

func startCPUProfile(path string) (func(), error) {
	return startRecording(path, "CPU profile", pprof.StartCPUProfile, pprof.StopCPUProfile)
}

func startTrace(path string) (func(), error) {
	return startRecording(path, "trace", trace.Start, trace.Stop)
}

// startRecording creates path and has start record what into it; the
// func it returns stops the recording and closes the file.
func startRecording(path, what string, start func(io.Writer) error, stop func()) (func(), error) {
	fh, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("the %s %s cannot be written: %w", what, path, err)
	}
	if err := start(fh); err != nil {
		fh.Close()
		return nil, fmt.Errorf("the %s cannot start: %w", what, err)
	}
	return func() { stop(); fh.Close() }, nil
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	fh, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := fh.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
