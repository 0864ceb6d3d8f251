//go:build tailnet

package tailnet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lxzan/gws"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"tailscale.com/ipn/store/mem"
	"tailscale.com/net/netns"
	"tailscale.com/tailcfg"
	"tailscale.com/tsnet"
	"tailscale.com/tstest/integration"
	"tailscale.com/tstest/integration/testcontrol"
	"tailscale.com/types/logger"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// patience bounds every wait of the test; nothing is timed against it.
const patience = 90 * time.Second

// control runs Tailscale's own test coordination server, DERP and STUN on
// loopback: a tailnet with no internet.
func control(t *testing.T) *testcontrol.Server {
	t.Helper()
	netns.SetEnabled(false) // the nodes dial loopback
	t.Cleanup(func() { netns.SetEnabled(true) })
	derpMap := integration.RunDERPAndSTUN(t, logger.Discard, "127.0.0.1")
	c := &testcontrol.Server{DERPMap: derpMap, DNSConfig: &tailcfg.DNSConfig{Proxied: true},
		MagicDNSDomain: "tail-scale.ts.net", Logf: logger.Discard}
	c.HTTPTestServer = httptest.NewUnstartedServer(c)
	c.HTTPTestServer.Start()
	t.Cleanup(c.HTTPTestServer.Close)
	return c
}

// peer is a device on the tailnet: a tsnet node of its own, with its login.
type peer struct {
	srv   *tsnet.Server
	login string
	jar   string // the dashboard's session cookie, once signed in
}

func join(ctx context.Context, t *testing.T, controlURL, name string) *peer {
	t.Helper()
	s := &tsnet.Server{Dir: filepath.Join(t.TempDir(), name), ControlURL: controlURL, Hostname: name,
		Store: new(mem.Store), Ephemeral: true, Logf: logger.Discard}
	t.Cleanup(func() { _ = s.Close() })
	st, err := s.Up(ctx)
	if err != nil {
		t.Fatalf("%s joins the tailnet: %v", name, err)
	}
	u, ok := st.User[st.Self.UserID]
	if !ok || u.LoginName == "" {
		t.Fatalf("%s has no login on the tailnet", name)
	}
	return &peer{srv: s, login: u.LoginName}
}

// client is an HTTP client whose connections go over p's tailnet node.
func (p *peer) client() *http.Client {
	return &http.Client{Timeout: patience, Transport: &http.Transport{DialContext: p.srv.Dial}}
}

// call sends one request to buddi over the tailnet, as the dashboard of
// p's browser would (its cookie, an Origin of buddi's, the CSRF token).
func (p *peer) call(t *testing.T, base, method, path string, body any) (int, *daemontest.Reply, http.Header) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, r)
	req.Header.Set("Origin", base)
	if p.jar != "" {
		req.Header.Set("Cookie", "buddi_session="+p.jar)
	}
	resp, err := p.client().Do(req)
	if err != nil {
		t.Fatalf("%s %s over the tailnet: %v", method, path, err)
	}
	defer resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "buddi_session" {
			p.jar = c.Value
		}
	}
	raw, _ := io.ReadAll(resp.Body)
	var rep daemontest.Reply
	_ = json.Unmarshal(raw, &rep)
	return resp.StatusCode, &rep, resp.Header
}

// buddiIP is buddi's tailnet address, as p's node sees the tailnet.
func buddiIP(ctx context.Context, t *testing.T, p *peer) string {
	t.Helper()
	lc, err := p.srv.LocalClient()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		st, err := lc.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range st.Peer {
			if ps.HostName == "buddi" && len(ps.TailscaleIPs) > 0 {
				return ps.TailscaleIPs[0].String()
			}
		}
	}
	t.Fatal("buddi never appeared among the peers")
	return ""
}

// tab is a dashboard tab's hand socket over the tailnet.
type tab struct {
	gws.BuiltinEventHandler
	conn  *gws.Conn
	notes chan messages.HandNote
}

func (h *tab) OnMessage(_ *gws.Conn, m *gws.Message) {
	defer m.Close()
	if m.Opcode == gws.OpcodeBinary {
		return
	}
	var n messages.HandNote
	if json.Unmarshal(m.Bytes(), &n) == nil {
		select {
		case h.notes <- n:
		default:
		}
	}
}

func (h *tab) send(t *testing.T, in map[string]any) {
	t.Helper()
	b, _ := json.Marshal(in)
	if err := h.conn.WriteMessage(gws.OpcodeText, b); err != nil {
		t.Fatal(err)
	}
}

// note is the tab's next note, skipping none.
func (h *tab) note(t *testing.T) messages.HandNote {
	t.Helper()
	select {
	case n := <-h.notes:
		return n
	case <-time.After(patience):
		t.Fatal("the hand socket said nothing")
	}
	return messages.HandNote{}
}

type dialer struct {
	ctx context.Context
	p   *peer
}

func (d dialer) Dial(network, addr string) (net.Conn, error) {
	return d.p.srv.Dial(d.ctx, network, addr)
}

func (p *peer) hand(ctx context.Context, t *testing.T, base, conv, csrf string) *tab {
	t.Helper()
	h := &tab{notes: make(chan messages.HandNote, 16)}
	host := strings.TrimPrefix(base, "http://")
	conn, _, err := gws.NewClient(h, &gws.ClientOption{Addr: "ws://" + host + ":80/api/browser/hand?conversation=" + conv,
		RequestHeader: http.Header{"Origin": {base}, "Cookie": {"buddi_session=" + p.jar}},
		NewDialer:     func() (gws.Dialer, error) { return dialer{ctx, p}, nil }})
	if err != nil {
		t.Fatalf("the hand socket over the tailnet: %v", err)
	}
	go conn.ReadLoop()
	t.Cleanup(func() { _ = conn.NetConn().Close() })
	h.conn = conn
	h.send(t, map[string]any{"t": string(handwire.CSRF), "token": csrf})
	return h
}

// headers sets the agent's headers on every MCP request, sent over rt.
type headers struct {
	rt http.RoundTripper
	h  map[string]string
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header.Set(k, v)
	}
	return h.rt.RoundTrip(r)
}

// On a tailnet of its own on loopback, buddi joins as a node beside the
// owner's device and a stranger's. The owner's login, confirmed once with
// a link from the host, then opens the dashboard signed in without a link;
// the stranger is told whose tailnet this is and nothing else; the owner
// drives a take-over's hand over the tailnet, which ends as soon as the
// owner's login leaves the list; /mcp answers an agent token over the
// tailnet.
func TestBuddiOnATailnet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	controlURL := control(t).HTTPTestServer.URL
	o := daemon.Options{Mode: sim.NewMode(sim.Config{}, 1), TailnetEphemeral: true}
	o.Config.Tailnet, o.Config.TailnetControl, o.Config.TailnetHostname = true, controlURL, "buddi"
	d := daemontest.Start(t, "", o)
	if _, err := d.TailnetUp(ctx); err != nil {
		t.Fatalf("buddi joins the tailnet: %v", err)
	}
	owner := join(ctx, t, controlURL, "owner-phone")
	stranger := join(ctx, t, controlURL, "stranger")
	if owner.login == stranger.login {
		t.Fatalf("the owner and the stranger share the login %s", owner.login)
	}
	base := "http://" + buddiIP(ctx, t, owner)

	// The first sign-in over the tailnet, with a link from the host, puts
	// the owner's login on the list.
	link := d.SignInLink().URL
	token := link[strings.LastIndex(link, "/")+1:]
	if code, r, _ := owner.call(t, base, "POST", "/api/session", map[string]string{"token": token}); code != 200 || !r.OK {
		t.Fatalf("signing in with the host's link over the tailnet answered %d %+v", code, r.Error)
	}
	var view messages.TailnetView
	if err := json.Unmarshal(d.Must(t, "GET", "/api/tailnet", nil).Result, &view); err != nil || len(view.Owners) != 1 || view.Owners[0] != owner.login {
		t.Fatalf("after the owner's first sign-in the list is %+v (%v); want %s", view.Owners, err, owner.login)
	}

	// A browser of the owner's with no cookie is signed in without a link.
	owner.jar = ""
	code, r, _ := owner.call(t, base, "GET", "/api/session", nil)
	var me messages.Me
	if code != 200 || !r.OK || json.Unmarshal(r.Result, &me) != nil || owner.jar == "" {
		t.Fatalf("the owner's GET /api/session over the tailnet answered %d %+v, cookie %q", code, r.Error, owner.jar)
	}
	if me.Device.Tailnet == nil || me.Device.Tailnet.Login != owner.login || me.Device.Tailnet.Node == "" {
		t.Fatalf("the owner's device carries the tailnet identity %+v; want %s on a node", me.Device.Tailnet, owner.login)
	}
	var devices messages.DeviceList
	if err := json.Unmarshal(d.Must(t, "GET", "/api/devices", nil).Result, &devices); err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, dev := range devices {
		listed = listed || dev.ID == me.Device.ID && dev.Tailnet != nil && dev.Tailnet.Login == owner.login
	}
	if !listed {
		t.Errorf("the devices list does not show %s's tailnet device: %+v", owner.login, devices)
	}

	// The stranger gets whose tailnet this is, and nothing else.
	for _, path := range []string{"/", "/api/session", "/healthz"} {
		code, r, h := stranger.call(t, base, "GET", path, nil)
		got := r.Code()
		if got == "" {
			got = messages.Code(h.Get("X-Buddi-Code"))
		}
		if code != http.StatusForbidden || got != messages.CodeTailnetRefused {
			t.Errorf("the stranger's GET %s answered %d %q; want 403 %s", path, code, got, messages.CodeTailnetRefused)
		}
	}
	if stranger.jar != "" {
		t.Error("the stranger was given a session cookie")
	}

	// An agent works over /mcp on the tailnet with its token.
	agent := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	tr := &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1, HTTPClient: &http.Client{Transport: headers{
		rt: owner.client().Transport, h: map[string]string{"Authorization": "Bearer " + agent, buddimcp.ConversationHeader: "c1"}}}}
	cs, err := daemontest.Connect(t, tr)
	if err != nil {
		t.Fatalf("MCP over the tailnet: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: buddimcp.ToolAct, Arguments: map[string]any{"action": "observe"}})
	if err != nil || res.IsError {
		t.Fatalf("browser_act over the tailnet's /mcp: %v %+v", err, res)
	}

	// The owner drives a take-over's hand over the tailnet.
	d.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	h := owner.hand(ctx, t, base, "c1", me.CSRF)
	if n := h.note(t); n.Type != messages.HandNoteAttached {
		t.Fatalf("the owner's hand over the tailnet said %+v; want it attached", n)
	}
	h.send(t, map[string]any{"t": string(handwire.Move), "x": 10.0, "y": 10.0})

	// Taking the owner's login off the list ends the hand.
	d.Must(t, "POST", "/api/tailnet/owners/remove", messages.OwnerBody{Name: owner.login})
	for {
		n := h.note(t)
		if n.Type == messages.HandNoteEnd {
			if n.Error == nil || n.Error.Code != messages.CodeTailnetRefused || !strings.Contains(n.Error.Message, "no longer allowed") {
				t.Fatalf("the hand ended with %+v; want %s saying the login is no longer allowed", n.Error, messages.CodeTailnetRefused)
			}
			break
		}
	}
	// And the owner's browser is no longer signed in.
	if code, r, _ := owner.call(t, base, "GET", "/api/session", nil); code != http.StatusUnauthorized || r.OK {
		t.Errorf("after its login left the list, the owner's GET /api/session answered %d %q", code, r.Code())
	}
}
