package daemon_test

import (
	"testing"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// shop is a copy of the simulated site at a public-looking host: not a
// preview origin, so the URL rules, site approval and air-gap apply to it.
const shop = "https://shop.example.com"

func askOpts(in *inputs) daemon.Options {
	o := simOpts(sim.Config{Hosts: []string{"shop.example.com"}}, in)
	o.Config.SiteApproval = "ask"
	return o
}

func nav(url string) map[string]any { return map[string]any{"action": "navigate", "url": url} }

func pending(t *testing.T, d *daemontest.Daemon) messages.SiteRequests {
	t.Helper()
	var list messages.SiteRequests
	if err := d.Must(t, "GET", "/api/approvals", nil).Decode(&list); err != nil {
		t.Fatal(err)
	}
	return list
}

func TestSiteApprovalOnceAlwaysReject(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, askOpts(nil))
	token := d.AddAgent(t, "ada", false)
	for _, c := range []string{"c1", "c2", "c3", "c5"} {
		d.Task(t, "ada", c, 80)
	}
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "approval_required")
	if p := pending(t, d); len(p) != 1 || p[0].Site != "example.com" {
		t.Fatalf("pending approvals: %+v", p)
	}
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c1", "site": "example.com", "decision": "once"})
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "")
	// Once is for that conversation only.
	wantCode(t, d.Act(t, token, "c2", nav(shop+"/p/1")), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c2", "site": "example.com", "decision": "reject"})
	wantCode(t, d.Act(t, token, "c2", nav(shop+"/p/1")), "not_approved")
	// A rejection holds for every conversation of the install, without asking.
	wantCode(t, d.Act(t, token, "c3", nav(shop+"/p/2")), "not_approved")
	if p := pending(t, d); len(p) != 0 {
		t.Fatalf("a rejected site was asked about again: %+v", p)
	}
	// The owner lifts the rejection: asked again, and approved for good.
	d.Must(t, "POST", "/api/browser/sites/revoke", map[string]any{"site": "example.com"})
	wantCode(t, d.Act(t, token, "c3", nav(shop+"/p/1")), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c3", "site": "example.com", "decision": "always"})
	wantCode(t, d.Act(t, token, "c3", nav(shop+"/p/1")), "")
	// A query string the owner did not see asks again, though the approval had none.
	wantCode(t, d.Act(t, token, "c5", nav(shop+"/p/2?q=secret")), "approval_required")
	d.Stop(t)

	// Always survives a restart and covers other conversations; a query
	// still asks again.
	d = daemontest.Start(t, dir, askOpts(nil))
	d.Task(t, "ada", "c4", 80)
	wantCode(t, d.Act(t, token, "c4", nav(shop+"/p/2")), "")
	wantCode(t, d.Act(t, token, "c4", nav(shop+"/p/2?q=x")), "approval_required")
}

func TestSiteApprovalsAreListedAndRevokedDurably(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, askOpts(nil))
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c1", "site": "example.com", "decision": "always"})
	var list messages.SiteGrants
	if err := d.Must(t, "GET", "/api/browser/sites", nil).Decode(&list); err != nil || len(list) != 1 ||
		list[0].Site != "example.com" || list[0].Scope != messages.ScopeAlways {
		t.Fatalf("the site list is %+v (%v), want example.com always", list, err)
	}
	var rev messages.SiteRevoked
	if err := d.Must(t, "POST", "/api/browser/sites/revoke", map[string]any{"site": "example.com"}).Decode(&rev); err != nil || rev.Removed != 1 {
		t.Fatalf("revoke = %+v (%v)", rev, err)
	}
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "approval_required")
	d.Stop(t)

	st, err := ledger.Open(ledger.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	kept, err := ledger.List[any](st, ledger.SitePrefix("default"))
	_ = st.Close()
	if err != nil || len(kept) != 0 {
		t.Fatalf("the store still holds %d site approvals after the revocation (%v)", len(kept), err)
	}
	d = daemontest.Start(t, dir, askOpts(nil))
	d.Task(t, "ada", "c2", 80)
	wantCode(t, d.Act(t, token, "c2", nav(shop+"/p/1")), "approval_required")
}

// Rules 1 and 2 together: with site approval on, the URL rules refuse
// first and nothing they refuse reaches the owner; a preview origin is
// never gated, not as a page link, not with a query.
func TestURLRulesComeFirstAndPreviewsAreNeverGated(t *testing.T) {
	var in inputs
	d, token := setup(t, askOpts(&in), "c1", 80)
	for url, want := range map[string]string{
		"https://www.chase.com/login": "never_automate",
		"http://10.1.2.3/admin":       "private_address",
		"http://localhost:6060/":      "private_address",
		"ftp://example.com/":          "scheme_not_allowed",
		"https://example.com:8443/":   "port_not_allowed",
	} {
		wantCode(t, d.Act(t, token, "c1", nav(url)), want)
		wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": url, "urlSource": "page_link"}), want)
	}
	script := map[string]any{"action": "script", "steps": []any{nav(shop + "/p/1"), nav("https://paypal.com/")}}
	wantCode(t, d.Act(t, token, "c1", script), "never_automate")
	if p := pending(t, d); len(p) != 0 {
		t.Fatalf("URLs the rules refuse were put to the owner: %+v", p)
	}
	for _, c := range []map[string]any{
		nav(sim.Origin + "/p/1"),
		nav(sim.Origin + "/p/2?q=anything"),
		{"action": "navigate", "url": sim.Origin + "/p/3?from=page", "urlSource": "page_link"},
	} {
		wantCode(t, d.Act(t, token, "c1", c), "")
	}
	if p := pending(t, d); len(p) != 0 {
		t.Fatalf("a preview origin was gated: %+v", p)
	}
}

func TestPageLinksNeedAnApprovedSite(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{Hosts: []string{"shop.example.com"}}, nil), "c1", 80)
	r := d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": shop + "/p/1", "urlSource": "page_link"})
	wantCode(t, r, "unapproved_site")
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "")
	// The owner's preview is no site to approve: its links are followed.
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/p/1", "urlSource": "page_link"}), "")
}
