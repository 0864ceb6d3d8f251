// Package tailnet puts buddi on the owner's tailnet as a node of its own,
// through Tailscale's tsnet: a listener reachable only from the tailnet,
// and who each connection comes from (Tailscale's WhoIs). It keeps the
// owner's list of logins, which the surface signs in without a link.
//
// The node's state lives under <data>/tailnet, owner-only. Nothing of it
// listens on a public interface: tsnet's listeners are in its own
// userspace network stack, reached through WireGuard only.
//
// Concurrency: one goroutine (watch) follows the node's IPN bus from Start
// until Close: it says the login link and the address, keeps the node's
// state, and calls the OnChange watchers, in order, after each change of
// the tailnet's map (a peer added, changed, expired or removed; the node's
// own state). Watchers must not block: the surface's only sends each
// tailnet hand a message to check its lease now.
package tailnet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"tailscale.com/client/local"
	"tailscale.com/ipn"
	"tailscale.com/tsnet"

	"github.com/buddi-dev/buddi/messages"
)

// Config is what a node needs.
type Config struct {
	// DataDir is buddi's data directory; the node keeps its state in
	// DataDir/tailnet (0700).
	DataDir string
	// Hostname is the node's name on the tailnet.
	Hostname string
	// AuthKey joins the tailnet without a login; empty, the node asks for
	// an interactive login, whose link Say is given.
	AuthKey string
	// ControlURL is the coordination server; empty for Tailscale's own.
	ControlURL string
	// Port is the port served on the tailnet; 0 for 80.
	Port int
	// Log gets tsnet's own lines at debug level and the node's at info.
	Log *slog.Logger
	// Say tells the owner one line: the login link, and where buddi is
	// reachable once the node is up.
	Say func(line string)
	// Ephemeral makes a node the tailnet forgets once it goes offline
	// (tests).
	Ephemeral bool
}

// Dir is where a data directory keeps the node's state.
func Dir(dataDir string) string { return filepath.Join(dataDir, "tailnet") }

// Node is buddi's node on the tailnet.
type Node struct {
	cfg    Config
	srv    *tsnet.Server
	lc     *local.Client
	owners *Owners
	stop   context.CancelFunc
	done   chan struct{}
	closed sync.Once

	mu       sync.Mutex
	hosts    map[string]bool // names and addresses the node answers under, lower case
	url      string          // http://<MagicDNS name or address>, once up
	state    ipn.State       // the node's last state; NoState before the first
	watchers []func()        // called after each change of the tailnet
}

// Start brings the node up in the background: Listen works at once, and
// connections arrive once the node has joined the tailnet.
func Start(c Config) (*Node, error) {
	if c.Port == 0 {
		c.Port = 80
	}
	if c.Hostname == "" {
		c.Hostname = "buddi"
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Say == nil {
		c.Say = func(string) {}
	}
	dir := Dir(c.DataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("tailnet: make %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("tailnet: make %s owner-only: %w", dir, err)
	}
	owners, err := OpenOwners(dir)
	if err != nil {
		return nil, err
	}
	debug := func(format string, args ...any) { c.Log.Debug("tailnet: " + fmt.Sprintf(format, args...)) }
	srv := &tsnet.Server{Dir: filepath.Join(dir, "node"), Hostname: c.Hostname, AuthKey: c.AuthKey,
		ControlURL: c.ControlURL, Ephemeral: c.Ephemeral, Logf: debug, UserLogf: debug}
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("tailnet: start the node: %w", err)
	}
	lc, err := srv.LocalClient()
	if err != nil {
		_ = srv.Close()
		return nil, fmt.Errorf("tailnet: the node's local API: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &Node{cfg: c, srv: srv, lc: lc, owners: owners, stop: cancel, done: make(chan struct{}), hosts: map[string]bool{}}
	go n.watch(ctx)
	return n, nil
}

// Listen is the listener on the tailnet, at the node's port.
func (n *Node) Listen() (net.Listener, error) {
	return n.srv.Listen("tcp", fmt.Sprintf(":%d", n.cfg.Port))
}

// Up waits until the node has joined the tailnet.
func (n *Node) Up(ctx context.Context) error {
	_, err := n.srv.Up(ctx)
	if err == nil {
		n.learn(ctx)
	}
	return err
}

// Owners is the owner's list of logins.
func (n *Node) Owners() *Owners { return n.owners }

// URL is the dashboard's address on the tailnet, "" until the node is up.
func (n *Node) URL() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.url
}

// Host reports whether host (a Host header, or an Origin's host) names
// this node: its MagicDNS name, short name or tailnet address, at its port.
func (n *Node) Host(host string) bool {
	host = strings.ToLower(host)
	if h, port, err := net.SplitHostPort(host); err == nil {
		if port != fmt.Sprint(n.cfg.Port) {
			return false
		}
		host = h
	} else if n.cfg.Port != 80 {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.hosts[strings.Trim(host, "[]")]
}

// WhoIs's errors besides the local API's own.
var (
	// ErrStopped: the node is closed.
	ErrStopped = errors.New("tailnet: the node is stopped")
	// ErrNotRunning: the node is on no tailnet now (logged out, stopped).
	ErrNotRunning = errors.New("tailnet: the node is not running")
	// ErrExpired: the peer's key expired (a logout, or an admin's expiry).
	ErrExpired = errors.New("tailnet: the peer's key expired")
)

// State is the node's last state as the node reported it.
func (n *Node) State() ipn.State {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.state
}

// OnChange calls f after each change of the tailnet the node sees: a peer
// added, changed or removed, the node's own state, node or login. f runs
// on the node's watcher and must not block.
func (n *Node) OnChange(f func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.watchers = append(n.watchers, f)
}

// changed tells the watchers the tailnet changed.
func (n *Node) changed() {
	n.mu.Lock()
	watchers := slices.Clone(n.watchers)
	n.mu.Unlock()
	for _, f := range watchers {
		f()
	}
}

// WhoIs says who the connection from remoteAddr (ip:port on the tailnet)
// comes from. A peer the tailnet no longer has (logged out, removed), or a
// node that is stopped, is an error.
func (n *Node) WhoIs(ctx context.Context, remoteAddr string) (messages.TailnetIdentity, error) {
	select {
	case <-n.done:
		return messages.TailnetIdentity{}, ErrStopped
	default:
	}
	if st := n.State(); st != ipn.NoState && st != ipn.Running {
		return messages.TailnetIdentity{}, fmt.Errorf("%w (it is %s)", ErrNotRunning, st)
	}
	w, err := n.lc.WhoIs(ctx, remoteAddr)
	if err != nil {
		return messages.TailnetIdentity{}, err
	}
	if w.Node == nil || w.UserProfile == nil || w.UserProfile.LoginName == "" {
		return messages.TailnetIdentity{}, errors.New("tailnet: WhoIs named no login")
	}
	if w.Node.Expired || !w.Node.KeyExpiry.IsZero() && !w.Node.KeyExpiry.After(time.Now()) {
		return messages.TailnetIdentity{}, ErrExpired
	}
	name := w.Node.ComputedName
	if name == "" {
		name = strings.TrimSuffix(w.Node.Name, ".")
	}
	return messages.TailnetIdentity{Login: w.UserProfile.LoginName, DisplayName: w.UserProfile.DisplayName,
		Node: name, NodeID: string(w.Node.StableID)}, nil
}

// Close takes the node off the tailnet.
func (n *Node) Close() error {
	var err error
	n.closed.Do(func() {
		n.stop()
		close(n.done)
		err = n.srv.Close()
	})
	return err
}

// watch follows the node's state and its map of the tailnet: it says the
// login link when one is needed, and where buddi is once the node runs,
// and tells the watchers of every change (OnChange).
func (n *Node) watch(ctx context.Context) {
	w, err := n.lc.WatchIPNBus(ctx, ipn.NotifyInitialState|ipn.NotifyPeerChanges)
	if err != nil {
		n.cfg.Log.Warn("tailnet: cannot follow the node's state", "err", err)
		return
	}
	defer func() { _ = w.Close() }()
	said := ""
	for {
		note, err := w.Next()
		if err != nil {
			return
		}
		if u := note.BrowseToURL; u != nil && *u != "" && *u != said {
			said = *u
			n.cfg.Say("buddi's tailnet node needs a login: open " + *u + " to add it to your tailnet (or start buddi with BUDDI_TAILNET_AUTHKEY set).")
		}
		if note.State != nil {
			n.mu.Lock()
			n.state = *note.State
			n.mu.Unlock()
		}
		if note.State != nil && *note.State == ipn.Running {
			c, cancel := context.WithTimeout(ctx, 10*time.Second)
			n.learn(c)
			cancel()
			if u := n.URL(); u != "" {
				n.cfg.Say("buddi is on your tailnet at " + u + "/; the logins on the owner's list open it signed in.")
			}
		}
		if mapChanged(&note) {
			n.changed()
		}
	}
}

// mapChanged reports whether a note changes who is on the tailnet as this
// node sees it.
func mapChanged(note *ipn.Notify) bool {
	return note.State != nil || note.SelfChange != nil || note.LoginFinished != nil ||
		len(note.PeersChanged) > 0 || len(note.PeersRemoved) > 0
}

// learn reads the node's names and addresses.
func (n *Node) learn(ctx context.Context) {
	st, err := n.lc.StatusWithoutPeers(ctx)
	if err != nil || st.Self == nil {
		return
	}
	hosts := map[string]bool{}
	var first string
	for _, ip := range st.TailscaleIPs {
		hosts[strings.ToLower(ip.String())] = true
		if first == "" && ip.Is4() {
			first = ip.String()
		}
	}
	dns := strings.ToLower(strings.TrimSuffix(st.Self.DNSName, "."))
	if dns != "" {
		hosts[dns] = true
		hosts[strings.SplitN(dns, ".", 2)[0]] = true
		first = dns
	}
	url := ""
	if first != "" {
		url = "http://" + first
		if n.cfg.Port != 80 {
			url = fmt.Sprintf("http://%s:%d", first, n.cfg.Port)
		}
	}
	n.mu.Lock()
	n.hosts, n.url = hosts, url
	n.mu.Unlock()
}
