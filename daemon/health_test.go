package daemon_test

import (
	"encoding/json"
	"net"
	"net/http"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// /healthz tells anyone only that buddi answers, and its version; the
// owner token adds the rest. A Host that is not buddi's own (a page that
// rebound a DNS name of its own to 127.0.0.1) is refused.
func TestHealthzKeepsDetailsForTheOwnerAndChecksHost(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	get := func(host, token string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+d.Addr()+"/healthz", nil)
		if host != "" {
			req.Host = host
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	status, m := get("", "")
	if status != http.StatusOK || m["ok"] != true || m["version"] == nil || m["sessions"] != nil || m["mode"] != nil {
		t.Fatalf("anyone's /healthz: %d %v; want ok and version only", status, m)
	}
	status, m = get("", "ba_not-the-owner")
	if status != http.StatusOK || m["mode"] != nil {
		t.Fatalf("an agent's /healthz: %d %v; want no details", status, m)
	}
	status, m = get("", d.Owner)
	if status != http.StatusOK || m["mode"] != "sim" || m["stopped"] != false || m["sessions"] == nil {
		t.Fatalf("the owner's /healthz: %d %v", status, m)
	}
	_, port, _ := net.SplitHostPort(d.Addr())
	status, m = get("rebind.attacker.example:"+port, d.Owner)
	if status != http.StatusForbidden || m["error"] == nil {
		t.Fatalf("a foreign Host: %d %v; want 403 host_refused", status, m)
	}
	if status, _ = get("localhost:"+port, ""); status != http.StatusOK {
		t.Fatalf("localhost on buddi's port: %d", status)
	}
}
