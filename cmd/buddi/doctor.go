package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/egress/netns"
)

func init() {
	register(&command{name: "doctor", summary: "check this install and say how to fix what is wrong", run: doctor})
}

type level int

const (
	ok level = iota
	warning
	failed
)

func (l level) String() string { return [...]string{"OK", "WARNING", "ERROR"}[l] }

type row struct {
	name  string
	level level
	text  string
}

func doctor(e *env, args []string) int {
	f := newFlags(e, "doctor")
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	rows := []row{dataRow(f.cfg), storeRow(f.cfg), tokenRow(f.cfg), addrRow(f.cfg)}
	rows = append(rows, browserRows(f.cfg)...)
	rows = append(rows, egressRow(f.cfg), extensionRow(f.cfg), telegramRow(f.cfg))
	tb := newTable(e.stdout)
	worst := ok
	for _, r := range rows {
		tb.row(r.name, r.level, r.text)
		worst = max(worst, r.level)
	}
	_ = tb.flush()
	if worst == failed {
		return exitFail
	}
	return exitOK
}

func dataRow(c config.Config) row {
	fi, err := os.Stat(c.DataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return row{"data dir", warning, c.DataDir + " does not exist yet; `buddi serve` creates it (0700)."}
	case err != nil:
		return row{"data dir", failed, fmt.Sprintf("%s cannot be read: %v.", c.DataDir, err)}
	case fi.Mode().Perm()&0o066 != 0:
		return row{"data dir", failed, fmt.Sprintf("%s is readable by others (%v); run `chmod 700 %s`.", c.DataDir, fi.Mode().Perm(), c.DataDir)}
	case fi.Mode().Perm()&0o011 != 0:
		// Entering, without listing or reading, is what the browser's own
		// user needs where the system gives it no view of its own.
		return row{"data dir", ok, fmt.Sprintf("%s (%v: others may only pass through to the browser profile).", c.DataDir, fi.Mode().Perm())}
	}
	return row{"data dir", ok, c.DataDir + " (owner-only)."}
}

func storeRow(c config.Config) row {
	path := ledger.Path(c.DataDir)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return row{"store", warning, "no store yet; `buddi serve` creates it."}
	}
	if inst, err := daemon.ReadInstance(c.DataDir); err == nil && running(inst.Addr) {
		return row{"store", ok, fmt.Sprintf("in use by buddi serve at http://%s (pid %d).", inst.Addr, inst.PID)}
	}
	st, err := ledger.Open(path)
	if errors.Is(err, ledger.ErrLocked) {
		return row{"store", warning, "in use by another process (a buddi serve that is starting or not answering); run doctor again in a moment."}
	}
	if err != nil {
		return row{"store", failed, fmt.Sprintf("%s cannot be opened (%v); move it aside to start afresh.", path, err)}
	}
	defer st.Close()
	s, err := st.Stop()
	if err != nil {
		return row{"store", failed, fmt.Sprintf("%s cannot be read (%v).", path, err)}
	}
	if s.Stopped {
		return row{"store", warning, "readable; browser access is STOPPED until `buddi resume --all`."}
	}
	return row{"store", ok, "readable."}
}

func tokenRow(c config.Config) row {
	p := filepath.Join(c.DataDir, daemon.OwnerTokenFile)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return row{"owner token", warning, "none yet; `buddi serve` writes one on first start."}
	case err != nil:
		return row{"owner token", failed, fmt.Sprintf("%s cannot be read: %v.", p, err)}
	case fi.Mode().Perm() != 0o600:
		return row{"owner token", failed, fmt.Sprintf("%s has mode %v; run `chmod 600 %s`.", p, fi.Mode().Perm(), p)}
	}
	return row{"owner token", ok, p + " (0600)."}
}

func egressRow(c config.Config) row {
	text, level := egressText(c)
	return row{"egress proxy", level, text}
}

func egressText(c config.Config) (string, level) {
	cfg := c.Egress
	g, err := egress.Listen(cfg)
	if err != nil {
		return fmt.Sprintf("the SOCKS guard cannot listen on loopback: %v.", err), failed
	}
	defer g.Close()
	text := "the SOCKS guard starts on loopback; public web on ports 80/443 only"
	switch {
	case cfg.AirGap:
		text += "; AIR-GAP is on"
	case len(cfg.Hosts) > 0:
		text += fmt.Sprintf("; limited to %d hosts", len(cfg.Hosts))
	}
	return text + "; " + browserNetwork() + ".", ok
}

// browserNetwork says how far the browser's network reaches besides the
// guard, trying what buddi serve does: a network namespace of its own.
func browserNetwork() string {
	if os.Geteuid() != 0 {
		return "the browser shares this machine's network (WebRTC held by its profile preferences); as root buddi would give it a network of its own whose only route is the guard"
	}
	ns, err := netns.New()
	if err != nil {
		return fmt.Sprintf("the browser shares this machine's network, since no network namespace can be made here (%v); WebRTC is held by its profile preferences", err)
	}
	_ = ns.Listener().Close()
	_ = ns.Close()
	return "the browser gets a network of its own whose only route is the guard (no UDP, no host addresses)"
}

func extensionRow(c config.Config) row {
	if _, err := os.Stat(filepath.Join(c.DataDir, "extension.json")); err == nil {
		return row{"extension", ok, "a browser extension is paired."}
	}
	return row{"extension", ok, "not paired (only needed for the \"Your browser\" mode)."}
}
