//go:build tailnet

package tailnet_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"tailscale.com/tailcfg"
	"tailscale.com/tstest/integration/testcontrol"
	"tailscale.com/types/key"

	"github.com/buddi-dev/buddi/actors/hand"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// endings is a log handler that passes on the hands' endings: the code of
// each "the owner's hand ended" line, by conversation. Everything else
// goes to stderr at warning level and above.
type endings struct {
	slog.Handler
	codes chan [2]string // conversation, code
}

func (e endings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo || e.Handler.Enabled(ctx, l)
}

func (e endings) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "the owner's hand ended" {
		var got [2]string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "conversation":
				got[0] = a.Value.String()
			case "code":
				got[1] = a.Value.String()

			}
			return true
		})
		select {
		case e.codes <- got:
		default:
		}
	}
	if e.Handler.Enabled(ctx, r.Level) {
		return e.Handler.Handle(ctx, r)
	}
	return nil
}

func (e endings) WithAttrs(as []slog.Attr) slog.Handler {
	return endings{Handler: e.Handler.WithAttrs(as), codes: e.codes}
}

func (e endings) WithGroup(g string) slog.Handler {
	return endings{Handler: e.Handler.WithGroup(g), codes: e.codes}
}

// The hand of a take-over driven over the tailnet ends as soon as the
// tailnet says the owner's device is gone, not at its next periodic check:
// the periodic checks, the check after input and the pings are an hour
// apart here, and the tab may fall any distance behind (its pictures stop
// reaching it once its node is gone), so only the change of buddi's map
// of the tailnet can end it. "logged
// out" expires the node's key at the control server (what a logout does
// to a node that is not ephemeral); "removed" has the control server tell
// buddi's node that the peer is gone.
func TestTheHandEndsWhenTheTailnetDropsTheOwnersNode(t *testing.T) {
	for name, drop := range map[string]func(t *testing.T, c *testcontrol.Server, owner *peer, buddi *tailcfg.Node){
		"logged out": func(t *testing.T, c *testcontrol.Server, owner *peer, _ *tailcfg.Node) {
			n := c.Node(nodeKey(t, owner))
			n.KeyExpiry = time.Now().Add(-time.Minute)
			c.UpdateNode(n)
		},
		"removed": func(t *testing.T, c *testcontrol.Server, owner *peer, buddi *tailcfg.Node) {
			gone := c.Node(nodeKey(t, owner))
			if !c.AddRawMapResponse(buddi.Key, &tailcfg.MapResponse{PeersRemoved: []tailcfg.NodeID{gone.ID}}) {
				t.Fatal("the control server could not reach buddi's node")
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			c := control(t)
			codes := make(chan [2]string, 16)
			log := slog.New(endings{Handler: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}), codes: codes})
			o := daemon.Options{Mode: sim.NewMode(sim.Config{}, 1), TailnetEphemeral: true, Log: log,
				Hand: hand.Config{Limits: hand.Limits{LeaseEvery: time.Hour, LeaseAfter: time.Hour, PingEvery: time.Hour},
					Pacer: pacer.Config{MaxBehind: 1 << 40}}}
			o.Config.Tailnet, o.Config.TailnetControl, o.Config.TailnetHostname = true, c.HTTPTestServer.URL, "buddi"
			d := daemontest.Start(t, "", o)
			if _, err := d.TailnetUp(ctx); err != nil {
				t.Fatalf("buddi joins the tailnet: %v", err)
			}
			owner := join(ctx, t, c.HTTPTestServer.URL, "owner-phone")
			base := "http://" + buddiIP(ctx, t, owner)
			link := d.SignInLink().URL
			if code, r, _ := owner.call(t, base, "POST", "/api/session", map[string]string{"token": link[strings.LastIndex(link, "/")+1:]}); code != 200 || !r.OK {
				t.Fatalf("signing in with the host's link over the tailnet answered %d %+v", code, r.Error)
			}
			_, r, _ := owner.call(t, base, "GET", "/api/session", nil)
			var me messages.Me
			if !r.OK || json.Unmarshal(r.Result, &me) != nil {
				t.Fatalf("the owner's GET /api/session over the tailnet answered %+v", r.Error)
			}

			d.AddAgent(t, "ada", false)
			d.Task(t, "ada", "c1", 80)
			d.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
			h := owner.hand(ctx, t, base, "c1", me.CSRF)
			if n := h.note(t); n.Type != messages.HandNoteAttached {
				t.Fatalf("the owner's hand over the tailnet said %+v; want it attached", n)
			}
			h.send(t, map[string]any{"t": string(handwire.Move), "x": 10.0, "y": 10.0})
			waitDriving(t, d, "c1", true)

			dropped := time.Now()
			drop(t, c, owner, buddiNode(t, c, owner))
			select {
			case got := <-codes:
				if got != [2]string{"c1", string(messages.CodeTailnetRefused)} {
					t.Fatalf("the hand ended with %v; want c1 ended with %s", got, messages.CodeTailnetRefused)
				}
				t.Logf("the hand ended %v after the control server was told to drop the owner's node", time.Since(dropped).Round(time.Millisecond))
			case <-time.After(patience):
				t.Fatal("the hand never ended after the tailnet dropped the owner's node")
			}
			waitDriving(t, d, "c1", false)
		})
	}
}

// nodeKey is p's node key.
func nodeKey(t *testing.T, p *peer) key.NodePublic {
	t.Helper()
	lc, err := p.srv.LocalClient()
	if err != nil {
		t.Fatal(err)
	}
	st, err := lc.StatusWithoutPeers(context.Background())
	if err != nil || st.Self == nil {
		t.Fatalf("%s's status: %v", p.login, err)
	}
	return st.Self.PublicKey
}

// buddiNode is buddi's node at the control server, as p sees it.
func buddiNode(t *testing.T, c *testcontrol.Server, p *peer) *tailcfg.Node {
	t.Helper()
	lc, err := p.srv.LocalClient()
	if err != nil {
		t.Fatal(err)
	}
	st, err := lc.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ps := range st.Peer {
		if ps.HostName == "buddi" {
			if n := c.Node(ps.PublicKey); n != nil {
				return n
			}
		}
	}
	t.Fatal("the control server does not know buddi's node")
	return nil
}

// waitDriving waits until the conversation's session says whether a tab
// drives its hand.
func waitDriving(t *testing.T, d *daemontest.Daemon, conv string, on bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var list messages.SessionList
		if err := json.Unmarshal(d.Must(t, "GET", "/api/browser/sessions", nil).Result, &list); err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			if s.Conversation == conv && s.Driving == on {
				return
			}
		}
	}
	t.Fatalf("%s's session never said driving=%v", conv, on)
}
