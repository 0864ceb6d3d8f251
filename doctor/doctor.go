// Package doctor checks an install and says how to fix what is wrong: the
// rows `buddi doctor` prints and the dashboard's settings show. Each row is
// a name, a level (OK, WARNING, ERROR) and one sentence.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/egress/netns"
	"github.com/buddi-dev/buddi/messages"
)

// Levels of a row.
const (
	OK      = "OK"
	Warning = "WARNING"
	Error   = "ERROR"
)

// Options say what only the caller knows.
type Options struct {
	// InUse names the buddi serve holding the store, if one does: the
	// running daemon asks from inside, the CLI looks for one.
	InUse func() (addr string, pid int, ok bool)
	// TokenFile is the owner token's file name in the data directory.
	TokenFile string
	// Serving is the address buddi serves on, as its serve.json says, or
	// a sentence on why that file is not to be trusted; nil or "" for c.Addr.
	Serving func() (addr, problem string)
	// Telegram is the pairing and the bot's state: live when a running
	// buddi serve said. Nil leaves the row at whether a token is set.
	Telegram func() (v messages.TelegramView, live bool, err error)
	// Launch starts the browser once (the first-run check) when no other
	// browser row failed.
	Launch bool
	// Computer is Use my apps' helper's probe, which never prompts; nil
	// leaves the row out.
	Computer func(ctx context.Context) messages.Permissions
	// Running is where the running buddi serve's browser is in its start
	// (nil when it starts none in the background); nil Running, or ok
	// false (no buddi serve answered), leaves the row out.
	Running func() (l *messages.BrowserLaunch, ok bool)
}

// Rows checks the install c describes.
func Rows(c config.Config, o Options) messages.DoctorRows {
	rows := messages.DoctorRows{dataRow(c), storeRow(c, o), tokenRow(c, o), addrRow(c, o)}
	rows = append(rows, browserRows(c, o.Launch)...)
	if o.Running != nil {
		if l, ok := o.Running(); ok && l != nil {
			rows = append(rows, runningRow(*l))
		}
	}
	rows = append(rows, egressRow(c), extensionRow(c))
	if c.Cluster {
		rows = append(rows, clusterRow(c))
	}
	if o.Computer != nil {
		rows = append(rows, computerRow(o.Computer))
	}
	return append(rows, telegramRow(c, o))
}

// computerWait bounds the helper's probe.
const computerWait = 10 * time.Second

// computerRow is Use my apps' permissions as the helper's probe finds them:
// a warning only when there is a helper that lacks something.
func computerRow(probe func(context.Context) messages.Permissions) messages.DoctorRow {
	ctx, cancel := context.WithTimeout(context.Background(), computerWait)
	defer cancel()
	p := probe(ctx)
	switch {
	case p.Helper == "":
		return row("use my apps", OK, p.Text+" (Only needed for Use my apps.)")
	case !p.Ready:
		return row("use my apps", Warning, p.Text)
	}
	return row("use my apps", OK, p.Text)
}

// Worst is the highest level among rows.
func Worst(rows messages.DoctorRows) string {
	worst := OK
	for _, r := range rows {
		switch r.Level {
		case Error:
			return Error
		case Warning:
			worst = Warning
		}
	}
	return worst
}

func row(name, level, text string) messages.DoctorRow {
	return messages.DoctorRow{Name: name, Level: level, Text: text}
}

func dataRow(c config.Config) messages.DoctorRow {
	fi, err := os.Stat(c.DataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return row("data dir", Warning, c.DataDir+" does not exist yet; `buddi serve` creates it (0700).")
	case err != nil:
		return row("data dir", Error, fmt.Sprintf("%s cannot be read: %v.", c.DataDir, err))
	case fi.Mode().Perm()&0o066 != 0:
		return row("data dir", Error, fmt.Sprintf("%s is readable by others (%v); run `chmod 700 %s`.", c.DataDir, fi.Mode().Perm(), c.DataDir))
	case fi.Mode().Perm()&0o011 != 0:
		// Entering, without listing or reading, is what the browser's own
		// user needs where the system gives it no view of its own.
		return row("data dir", OK, fmt.Sprintf("%s (%v: others may only pass through to the browser profile).", c.DataDir, fi.Mode().Perm()))
	}
	return row("data dir", OK, c.DataDir+" (owner-only).")
}

func storeRow(c config.Config, o Options) messages.DoctorRow {
	path := ledger.Path(c.DataDir)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return row("store", Warning, "no store yet; `buddi serve` creates it.")
	}
	size := storeSize(c, path)
	if o.InUse != nil {
		if addr, pid, ok := o.InUse(); ok {
			return row("store", OK, fmt.Sprintf("in use by buddi serve at http://%s (pid %d); %s", addr, pid, size))
		}
	}
	st, err := ledger.Open(path)
	if errors.Is(err, ledger.ErrLocked) {
		return row("store", Warning, "in use by another process (a buddi serve that is starting or not answering); run doctor again in a moment.")
	}
	if err != nil {
		return row("store", Error, fmt.Sprintf("%s cannot be opened (%v); move it aside to start afresh.", path, err))
	}
	defer st.Close()
	s, err := st.Stop()
	if err != nil {
		return row("store", Error, fmt.Sprintf("%s cannot be read (%v).", path, err))
	}
	size = held(st) + size
	if s.Stopped {
		return row("store", Warning, "readable; browser access is STOPPED until `buddi resume --all`; "+size)
	}
	return row("store", OK, "readable; "+size)
}

// held says how many records an opened store holds and what they take.
func held(st *ledger.Store) string {
	n, err := st.Records()
	if err != nil {
		return ""
	}
	noun := "records"
	if n == 1 {
		noun = "record"
	}
	return fmt.Sprintf("%d %s in %s, ", n, noun, bytesText(st.Size().Live))
}

// bytesText is n bytes in the largest unit that keeps it at least 1.
func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// storeSize says how much disk the store takes and how long it keeps the
// records of ended conversations.
func storeSize(c config.Config, path string) string {
	keep := "for good (BUDDI_RETENTION=0)"
	if c.Retention > 0 {
		keep = "for " + retentionText(c.Retention) + " (BUDDI_RETENTION)"
	}
	n, err := ledger.DiskSize(path)
	if err != nil {
		return fmt.Sprintf("its size cannot be read (%v); ended conversations are kept %s.", err, keep)
	}
	return fmt.Sprintf("%s on disk; ended conversations are kept %s.", bytesText(n), keep)
}

// retentionText is d in days when it is a whole number of them.
func retentionText(d time.Duration) string {
	const day = 24 * time.Hour
	if d%day == 0 {
		if d == day {
			return "1 day"
		}
		return fmt.Sprintf("%d days", d/day)
	}
	return d.String()
}

func tokenRow(c config.Config, o Options) messages.DoctorRow {
	p := filepath.Join(c.DataDir, o.TokenFile)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return row("owner token", Warning, "none yet; `buddi serve` writes one on first start.")
	case err != nil:
		return row("owner token", Error, fmt.Sprintf("%s cannot be read: %v.", p, err))
	case fi.Mode().Perm() != 0o600:
		return row("owner token", Error, fmt.Sprintf("%s has mode %v; run `chmod 600 %s`.", p, fi.Mode().Perm(), p))
	}
	return row("owner token", OK, p+" (0600).")
}

func egressRow(c config.Config) messages.DoctorRow {
	cfg := c.Egress
	g, err := egress.Listen(cfg)
	if err != nil {
		return row("egress proxy", Error, fmt.Sprintf("the SOCKS guard cannot listen on loopback: %v.", err))
	}
	defer g.Close()
	text := "the SOCKS guard starts on loopback; public web on ports 80/443 only"
	switch {
	case cfg.AirGap:
		text += "; AIR-GAP is on"
	case len(cfg.Hosts) > 0:
		text += fmt.Sprintf("; limited to %d hosts", len(cfg.Hosts))
	}
	return row("egress proxy", OK, text+"; "+browserNetwork()+".")
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

// Within is Rows as a running buddi sees itself (the dashboard's
// settings), given until ctx ends: past it, one row says the checks did
// not finish, and they go on in the background.
func Within(ctx context.Context, c config.Config, o Options) messages.DoctorRows {
	done := make(chan messages.DoctorRows, 1)
	go func() { done <- Rows(c, o) }()
	select {
	case rows := <-done:
		return rows
	case <-ctx.Done():
		return messages.DoctorRows{{Name: "doctor", Level: Warning, Text: "The checks did not finish in time; run `buddi doctor` on the computer buddi runs on."}}
	}
}
