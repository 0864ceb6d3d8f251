// Package loadtest is buddi's load-test harness, behind `buddi loadtest`.
// It starts a daemon in-process (the sim driver, one simulated browser
// profile per eight sessions, a temporary data directory, 127.0.0.1:0) or
// takes a running one, and drives many simulated conversations through the
// real HTTP agent API with real tasks and agent tokens: observe-and-act
// loops with think time, clicks naming stale evidence on purpose, the owner
// taking over, resuming, releasing and stopping at a rate, and session
// crashes injected through daemon.Options.Chaos. When a task's budget is
// spent, the agent asks the owner API for a new one and goes on.
//
// While it runs, a Checker is fed every act sent and answered, every input
// the simulated pages receive (sim.Config.OnInput, shared by all profiles)
// and every owner control acknowledged, and checks the invariants listed in
// invariants.go. The run ends with a Report: throughput, latency per action
// and per owner control, errors by code, memory and goroutines per
// conversation, restarts, renewals and the invariants' verdicts.
//
// It can also drive the members of one cluster (Config.Members, `--target`
// given several times): the owner's controls through the first, each
// conversation's agent calls through the members in turn, so most calls are
// routed to the member holding the conversation (and so are take-over and
// resume). What is each member's own (/healthz, its sessions) is asked of
// every member with its own owner token; see members.go.
//
// Concurrency: each conversation has one agent goroutine, the only sender
// of its acts, so at most one act per conversation is in flight. Owner
// controls run on goroutines of their own; a conversation's mutex orders
// the controls, renewals and resumes that touch it, and a run-wide RWMutex
// keeps stop-all from overlapping a take-over. Memory is sampled with the
// load held: agents take a shared gate around each step, and the owner around
// each control; the sampler takes it exclusively. The Checker and the counters are safe for concurrent use;
// latency histograms are lock-free. Run returns only after every agent and
// owner goroutine has ended and the in-process daemon has shut down (or,
// against a running daemon, this run's sessions were released and its
// agents removed).
package loadtest
