package daemon_test

import (
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestSiteApprovalOnceAlwaysReject(t *testing.T) {
	dir := t.TempDir()
	o := simOpts(sim.Config{}, nil)
	o.Config.SiteApproval = "ask"
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	for _, c := range []string{"c1", "c2", "c3"} {
		d.Task(t, "ada", c, 80)
	}
	nav := map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}
	wantCode(t, d.Act(t, token, "c1", nav), "approval_required")
	r := d.Must(t, "GET", "/api/approvals", nil)
	if len(r.Result) < 10 || !contains(string(r.Result), `"site":"https://sim.localhost"`) {
		t.Fatalf("pending approvals: %s", r.Result)
	}
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c1", "site": "https://sim.localhost", "decision": "once"})
	wantCode(t, d.Act(t, token, "c1", nav), "")
	// Once is for that conversation only.
	wantCode(t, d.Act(t, token, "c2", nav), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c2", "site": "https://sim.localhost", "decision": "reject"})
	wantCode(t, d.Act(t, token, "c2", nav), "not_approved")
	// A query string the owner did not see asks again.
	wantCode(t, d.Act(t, token, "c3", nav), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c3", "site": "https://sim.localhost", "decision": "always"})
	wantCode(t, d.Act(t, token, "c3", nav), "")
	d.Stop(t)

	// Always survives a restart and covers other conversations.
	d = daemontest.Start(t, dir, o)
	d.Task(t, "ada", "c4", 80)
	wantCode(t, d.Act(t, token, "c4", nav), "")
	wantCode(t, d.Act(t, token, "c4", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2?q=x"}), "")
}

func TestPageLinksNeedAnApprovedSite(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	r := d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1", "urlSource": "page_link"})
	wantCode(t, r, "unapproved_site")
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
}
