package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// homeOf is the member etcd names as holding conv's session.
func homeOf(t testing.TB, etcd *etcdtest.Server, conv string, ms ...*member) *member {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	st := storeOf(ctx, t, etcd)
	defer st.Close()
	rec, ok, err := st.Get(ctx, shared.Homes, conv)
	if err != nil || !ok {
		t.Fatalf("etcd names no member for %s: %v", conv, err)
	}
	for _, m := range ms {
		if m.cmd.ProcessState == nil && m.id(t) == string(rec.Value) {
			return m
		}
	}
	t.Fatalf("etcd names member %s for %s, which is none of the running ones", rec.Value, conv)
	return nil
}

// storeOf is a client of the cluster's shared state that holds its
// secret, as a member does.
func storeOf(ctx context.Context, t testing.TB, etcd *etcdtest.Server) *shared.Store {
	t.Helper()
	secret, err := shared.ReadSecret(secretFor(t, etcd))
	if err != nil {
		t.Fatal(err)
	}
	st, err := shared.Open(ctx, shared.Config{Endpoints: []string{etcd.Endpoint()}, Prefix: shared.DefaultPrefix, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sessions lists the sessions the member's owner API lists: every
// member's.
func (m *member) sessions(t testing.TB) []messages.SessionInfo {
	t.Helper()
	var list []messages.SessionInfo
	if err := m.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list); err != nil {
		t.Fatal(err)
	}
	return list
}

func stepsOf(t testing.TB, m *member, conv string) (messages.SessionInfo, bool) {
	t.Helper()
	for _, s := range m.sessions(t) {
		if s.Conversation == conv {
			return s, true
		}
	}
	return messages.SessionInfo{}, false
}

// A task the owner starts through a is reached by the agent through b
// and c alike: one session, on the member etcd names, counts every act;
// no other member holds one.
func TestAConversationStartedThroughOneMemberIsCalledThroughAnother(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "c1", 20)
	c.Observe(t, c.agent, "c1")
	b.Observe(t, b.agent, "c1")
	if r := a.Tool(t, a.agent, "browser.status", "c1", map[string]any{}); !r.OK {
		t.Fatalf("status through a: %s: %s", r.Code(), r.Error.Message)
	}
	home := homeOf(t, etcd, "c1", a, b, c)
	s, ok := stepsOf(t, home, "c1")
	if !ok || s.StepsUsed != 2 || s.StepsMax != 20 {
		t.Fatalf("%s, the member holding c1, lists %+v (found %v); want one session with 2 of 20 steps used", home.name, s, ok)
	}
	for _, m := range []*member{a, b, c} {
		if held := m.health(t).Capacity.Sessions.InUse; held != map[bool]int{true: 1, false: 0}[m == home] {
			t.Fatalf("%s holds %d sessions; only %s holds c1", m.name, held, home.name)
		}
		if got, ok := stepsOf(t, m, "c1"); !ok || got.StepsUsed != 2 {
			t.Fatalf("%s's owner API lists c1 as %+v (found %v); every member lists every member's sessions", m.name, got, ok)
		}
	}

	// The owner's controls of c1 reach it through members that do not
	// hold it.
	away := others(home, a, b, c)
	away[0].Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	if r := home.Act(t, home.agent, "c1", map[string]any{"action": "observe"}); r.Code() != messages.CodeTakenOver {
		t.Fatalf("an act after a take-over through %s answered %q", away[0].name, r.Code())
	}
	away[1].Must(t, "POST", "/api/browser/resume", messages.OwnerBody{Conversation: "c1"})
	away[0].Observe(t, away[0].agent, "c1")
	if shots := away[1].Must(t, "POST", "/api/browser/screenshots", messages.OwnerBody{Conversation: "c1"}); len(shots.Result) < 3 {
		t.Fatalf("screenshots of c1 through %s answered %s", away[1].name, shots.Result)
	}
	// The dashboard's picture of the page, which no dashboard of away[1]
	// has had relayed: away[1] asks the member holding c1 for it.
	var snap messages.Snapshot
	r := away[1].Must(t, "POST", "/api/browser/snapshot", messages.OwnerBody{Conversation: "c1"})
	if err := json.Unmarshal(r.Result, &snap); err != nil || snap.Conversation != "c1" || len(snap.JPEG) == 0 {
		t.Fatalf("the picture of c1's page through %s answered %.200s (%v)", away[1].name, r.Result, err)
	}
	away[1].Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: "c1"})
	if r := away[0].Act(t, away[0].agent, "c1", map[string]any{"action": "observe"}); r.Code() != messages.CodeNoTask {
		t.Fatalf("an act after a release through %s answered %q", away[1].name, r.Code())
	}
}

// Conversations spread over the members, and the owner's Stop through
// one member refuses the acts of every conversation, wherever it lives.
func TestStopRefusesConversationsOnEveryMember(t *testing.T) {
	etcd, a, b, c := three(t)
	convs := make([]string, 12)
	for i := range convs {
		convs[i] = fmt.Sprintf("spread-%d", i)
		a.Task(t, "ada", convs[i], 50)
	}
	homes := map[string]bool{}
	for _, conv := range convs {
		homes[homeOf(t, etcd, conv, a, b, c).name] = true
	}
	if len(homes) < 2 {
		t.Fatalf("12 conversations all live on %v; placement does not spread them", homes)
	}
	b.Must(t, "POST", "/api/browser/stop", nil)
	// Each member refuses once its watch of etcd delivers the Stop (a
	// fraction of a millisecond after b's answer, BenchmarkStopToLastRefusal).
	for _, m := range []*member{a, b, c} {
		for _, conv := range convs {
			for deadline := time.Now().Add(patience); ; time.Sleep(10 * time.Millisecond) {
				r := m.Act(t, m.agent, conv, map[string]any{"action": "observe"})
				if r.Code() == messages.CodeStopped {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s's act through %s still answers %q under the Stop", conv, m.name, r.Code())
				}
			}
		}
	}
}

// kill -9 of the member holding a conversation: the next call through
// another member starts its session again elsewhere with the task and
// its budget, answers restarted once (nothing replayed), then works.
func TestAConversationWhoseMemberIsKilledMovesWithItsTask(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "c2", 30)
	for range 3 {
		b.Observe(t, b.agent, "c2")
	}
	home := homeOf(t, etcd, "c2", a, b, c)
	before, _ := stepsOf(t, home, "c2")
	killed := time.Now()
	home.kill9()
	via := others(home, a, b, c)[0]
	untilMoved(t, via, "c2")
	t.Logf("c2 answered again through %s %v after its member was killed", via.name, time.Since(killed))
	movedWithTask(t, etcd, "c2", before, a, b, c)
}

// others are the members of ms but m.
func others(m *member, ms ...*member) []*member {
	var out []*member
	for _, o := range ms {
		if o != m {
			out = append(out, o)
		}
	}
	return out
}

// movedWithTask checks that conv, which moved after its member was lost,
// runs on the member etcd names with the task it had (before) and one
// more step used: the observe after the move, nothing replayed.
func movedWithTask(t testing.TB, etcd *etcdtest.Server, conv string, before messages.SessionInfo, ms ...*member) {
	t.Helper()
	now := homeOf(t, etcd, conv, ms...)
	s, ok := stepsOf(t, now, conv)
	switch {
	case !ok:
		t.Fatalf("%s holds %s in etcd but lists no session for it", now.name, conv)
	case s.StepsMax != before.StepsMax || s.Task != before.Task || !s.Expires.Equal(before.Expires):
		t.Fatalf("%s's task moved as %+v; it was %+v", conv, s, before)
	case s.StepsUsed != before.StepsUsed+1:
		t.Fatalf("%s moved with %d steps used, want %d: the %d before the move and the observe after it, nothing replayed", conv, s.StepsUsed, before.StepsUsed+1, before.StepsUsed)
	}
}

// An agent added through one member is known to every member; removed
// through another, its token is refused everywhere and its session ends;
// two members adding one name at once give it to exactly one agent.
func TestAgentsAreTheClustersAndARemovalHoldsEverywhere(t *testing.T) {
	_, a, b, c := three(t)
	bea := c.AddAgent(t, "bea_b", false)
	for _, m := range []*member{a, b} {
		m.knowsAgent(t, "bea_b") // by its watch of etcd, a moment after c's answer
	}
	a.Task(t, "bea_b", "c_3", 10)
	for _, m := range []*member{a, b, c} {
		if r := m.Act(t, bea, "c_3", map[string]any{"action": "observe"}); !r.OK {
			t.Fatalf("bea, added through c, acts through %s: %s: %s", m.name, r.Code(), r.Error.Message)
		}
	}
	b.Must(t, "DELETE", "/api/agents/bea_b", nil)
	for _, m := range []*member{a, b, c} {
		for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
			r := m.Act(t, bea, "c_3", map[string]any{"action": "observe"})
			if r.Code() == messages.CodeUnauthorized {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("bea's token, removed through b, still answers %q through %s", r.Code(), m.name)
			}
		}
		// The member holding the session ends it as it hears of the
		// removal, which may be a moment after m refused the token.
		for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
			if _, ok := stepsOf(t, m, "c_3"); !ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still lists bea's session after bea was removed", m.name)
			}
		}
	}

	got := make(chan string, 3)
	for _, m := range []*member{a, b, c} {
		go func() {
			r, err := m.Do("POST", "/api/agents", m.Owner, messages.OwnerBody{Name: "cal"})
			switch {
			case err != nil:
				got <- err.Error()
			case r.OK:
				got <- "ok"
			default:
				got <- string(r.Code())
			}
		}()
	}
	var ok, exists int
	for range 3 {
		switch g := <-got; g {
		case "ok":
			ok++
		case string(messages.CodeAgentExists):
			exists++
		default:
			t.Fatalf("adding cal answered %s", g)
		}
	}
	if ok != 1 || exists != 2 {
		t.Fatalf("three members adding cal at once: %d added, %d agent_exists; want 1 and 2", ok, exists)
	}
}

// untilMoved calls conv through via until it works again after its member
// was lost, and fails t unless it first said it restarted elsewhere.
func untilMoved(t testing.TB, via *member, conv string) {
	t.Helper()
	var moved bool
	deadline := time.Now().Add(patience)
	for {
		r := via.Act(t, via.agent, conv, map[string]any{"action": "observe"})
		if r.OK {
			break
		}
		switch {
		case time.Now().After(deadline):
			t.Fatalf("%s through %s still answers %q: %s", conv, via.name, r.Code(), r.Error.Message)
		case r.Code() == messages.CodeRestarted && strings.Contains(r.Error.Message, "started again on another member"):
			moved = true
		case r.Code() != messages.CodeRestarted && r.Code() != messages.CodeClusterDown:
			t.Fatalf("%s through %s answered %q while its member was lost: %s", conv, via.name, r.Code(), r.Error.Message)
		}
	}
	if !moved {
		t.Fatalf("%s worked again without first saying it restarted on another member", conv)
	}
}

// An act in flight when its member is killed is answered as not known to
// have finished, and is not run again: the step count where the
// conversation moves goes on from the observe before, and counts the
// observe after the move (the wait never answered, so etcd never had it).
func TestAnActInFlightOnAKilledMemberIsNotKnownToHaveFinished(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "c4", 30)
	b.Observe(t, b.agent, "c4")
	home := homeOf(t, etcd, "c4", a, b, c)
	via := a
	if via == home {
		via = b
	}
	answered := make(chan *daemontest.Reply, 1)
	go func() {
		r, err := via.Do("POST", "/api/tools/browser.act", via.agent, map[string]any{"conversation": "c4",
			"input": map[string]any{"action": "wait_for", "wait": map[string]any{"text": "never on the page"}, "timeoutMs": 15000}})
		if err != nil {
			t.Error(err)
		}
		answered <- r
	}()
	time.Sleep(2 * time.Second) // the wait is running on home
	start := time.Now()
	home.kill9()
	r := <-answered
	t.Logf("the caller heard after %v: %s", time.Since(start), r.Code())
	if r.Code() != messages.CodeRestarted || !strings.Contains(r.Error.Message, "not known whether") {
		t.Fatalf("the act in flight on the killed member answered %q (%v); want restarted, not known whether it finished", r.Code(), r.Error)
	}
	untilMoved(t, via, "c4")
	if s, ok := stepsOf(t, homeOf(t, etcd, "c4", a, b, c), "c4"); !ok || s.StepsUsed != 2 {
		t.Fatalf("c4 moved with %+v (found %v); want 2 steps used: the observes before and after, the wait not run again", s, ok)
	}
}

// The owner's answer "always" to a site, given for a conversation on one
// member, holds for conversations on every member; revoked through another
// member, every member asks again.
func TestASiteAnsweredAlwaysIsTheClusters(t *testing.T) {
	const shop = "https://shop.example.com/p/1"
	etcd, a, b, c := three(t, "BUDDI_SITE_APPROVAL=ask", "BUDDI_SIM_HOSTS=shop.example.com")
	all := []*member{a, b, c}
	convs := make([]string, 9)
	for i := range convs {
		convs[i] = fmt.Sprintf("site-%d", i)
		a.Task(t, "ada", convs[i], 20)
	}
	homes := map[string]bool{}
	for _, conv := range convs {
		homes[homeOf(t, etcd, conv, all...).name] = true
	}
	if len(homes) < 2 {
		t.Fatalf("9 conversations all live on %v", homes)
	}
	nav := map[string]any{"action": "navigate", "url": shop}
	if r := b.Act(t, b.agent, convs[0], nav); r.Code() != messages.CodeApprovalRequired {
		t.Fatalf("the first navigation to the shop answered %q", r.Code())
	}
	c.Must(t, "POST", "/api/approvals", map[string]any{"conversation": convs[0], "site": "example.com", "decision": "always"})
	for i, conv := range convs {
		via := all[i%3]
		for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
			r := via.Act(t, via.agent, conv, nav)
			if r.OK {
				break
			}
			if r.Code() != messages.CodeApprovalRequired || time.Now().After(deadline) {
				t.Fatalf("%s (on %s) navigating to an always-approved site answered %q", conv, homeOf(t, etcd, conv, all...).name, r.Code())
			}
		}
	}
	b.Must(t, "POST", "/api/browser/sites/revoke", map[string]any{"site": "example.com"})
	for i, conv := range convs {
		via := all[(i+1)%3]
		for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
			r := via.Act(t, via.agent, conv, nav)
			if r.Code() == messages.CodeApprovalRequired {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s after the revocation through b still answers %q", conv, r.Code())
			}
		}
	}
}

// A member that restarts resumes none of its sessions by itself: the next
// call for one of its conversations starts it again, where the cluster
// places it, with its task, and says so once.
func TestAConversationComesBackWhenItsMemberRestarts(t *testing.T) {
	etcd, a, b, c := three(t)
	a.Task(t, "ada", "c5", 30)
	b.Observe(t, b.agent, "c5")
	home := homeOf(t, etcd, "c5", a, b, c)
	home.stop()
	home.start(t)
	via := a
	if via == home {
		via = c
	}
	untilMoved(t, via, "c5")
	now := homeOf(t, etcd, "c5", a, b, c)
	held := 0
	for _, m := range []*member{a, b, c} {
		held += m.health(t).Capacity.Sessions.InUse
	}
	if held != 1 {
		t.Fatalf("after %s restarted the members hold %d sessions, want c5's one (on %s)", home.name, held, now.name)
	}
	if s, ok := stepsOf(t, now, "c5"); !ok || s.StepsUsed != 2 || s.StepsMax != 30 {
		t.Fatalf("c5 came back as %+v (found %v); want its 30-step task with the observes before and since", s, ok)
	}
}
