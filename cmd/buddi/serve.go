package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/instance"
)

func init() {
	register(&command{name: "serve", summary: "run the buddi daemon: agent API, owner API and the browser", run: serve})
}

func serve(e *env, args []string) int {
	f := newFlags(e, "serve")
	accessLog := f.Bool("access-log", false, "log every HTTP request at info level")
	f.BoolVar(&f.cfg.AllowRemote, "allow-remote", f.cfg.AllowRemote, "serve plain HTTP on an address beyond loopback without TLS, where tokens cross the network in clear; logged as a warning (env BUDDI_ALLOW_REMOTE)")
	f.StringVar(&f.cfg.TLSCert, "tls-cert", f.cfg.TLSCert, "PEM `FILE` of the certificate to serve HTTPS with, beside --tls-key (env BUDDI_TLS_CERT)")
	f.StringVar(&f.cfg.TLSKey, "tls-key", f.cfg.TLSKey, "PEM `FILE` of the certificate's private key (env BUDDI_TLS_KEY)")
	f.BoolVar(&f.cfg.Tailnet, "tailnet", f.cfg.Tailnet, "also serve on your tailnet as its own node, its state under <data>/tailnet; the auth key is BUDDI_TAILNET_AUTHKEY (or TS_AUTHKEY), else a login link is printed (env BUDDI_TAILNET)")
	f.BoolVar(&f.cfg.Cluster, "cluster", f.cfg.Cluster, "join the cluster whose etcd BUDDI_CLUSTER_ETCD names (default "+config.DefaultEtcd+"): the owner's Stop holds on every member, and a member that cannot reach etcd refuses new work (env BUDDI_CLUSTER)")
	f.StringVar(&f.cfg.ClusterAdvertise, "advertise", f.cfg.ClusterAdvertise, "with --cluster, the host:port other members and the owner reach this member at; default the address it listens on (env BUDDI_CLUSTER_ADVERTISE)")
	f.StringVar(&f.cfg.ClusterSecret, "cluster-secret", f.cfg.ClusterSecret, "with --cluster, the `FILE` holding the cluster's secret (made once by `buddi cluster init`, copied to every member); default cluster.secret in the data directory (env BUDDI_CLUSTER_SECRET)")
	f.BoolVar(&f.cfg.ClusterPlaintextEtcd, "cluster-plaintext-etcd", f.cfg.ClusterPlaintextEtcd, "with --cluster, speak to an etcd beyond loopback without TLS, where anyone on the path reads the shared state (env BUDDI_CLUSTER_PLAINTEXT_ETCD)")
	f.BoolVar(&f.cfg.ClusterTrustEtcd, "cluster-trust-etcd", f.cfg.ClusterTrustEtcd, "with --cluster, let a member with a new data directory start when no other member answers, taking the newest signed records etcd holds (an older one written back there is not told apart); once, to start a cluster again after every member's data was lost (env BUDDI_CLUSTER_TRUST_ETCD)")
	cpuProfile := f.String("cpuprofile", "", "write a CPU profile of the whole run, start to shutdown, to `FILE` (read it with go tool pprof)")
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	tuneGC(e, daemonGC)
	tuneProcs(e)
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fail(e, "serve", "%v", err)
		}
		defer stop()
	}
	if err := f.cfg.CheckServeAddr(); err != nil {
		return usageFail(e, "serve", strings.TrimPrefix(err.Error(), config.ErrInvalid.Error()+": "))
	}
	log := newLogger(e, f.cfg.LogLevel)
	// Caught from before the start: a signal just after "serving at" (which
	// the start prints) shuts down cleanly too.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	d, err := daemon.Start(daemon.Options{Config: f.cfg, Log: log, Version: version,
		Out: e.stdout, Terminal: isTerminal(e.stdout), AccessLog: *accessLog})
	if err != nil {
		return fail(e, "serve", "%s", startProblem(err, f.cfg.DataDir))
	}
	s := <-sig
	log.Info("shutting down", "signal", s.String())
	go func() {
		<-sig
		fmt.Fprintln(e.stderr, "buddi serve: second signal; exiting now.")
		os.Exit(exitFail)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Shutdown(ctx); err != nil {
		log.Warn("shutdown was not clean", "err", err)
	}
	log.Info("stopped")
	return exitOK
}

// startProblem turns a start failure into one sentence.
func startProblem(err error, dir string) string {
	switch {
	case errors.Is(err, instance.ErrRunning):
		return "another buddi serve already uses " + dir + afterColon(err.Error()) + "."
	case errors.Is(err, ledger.ErrLocked):
		return "the store in " + dir + " is locked by another process; stop it or use another --data."
	case errors.Is(err, ledger.ErrCorrupt):
		return "the store in " + dir + "/state cannot be read (" + err.Error() + "); move it aside to start afresh, or restore a backup."
	}
	return err.Error()
}

func afterColon(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && s[i+1] == ' ' {
			return ": " + s[i+2:]
		}
	}
	return ""
}

func newLogger(e *env, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: l}))
}
