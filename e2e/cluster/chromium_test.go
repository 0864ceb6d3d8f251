package cluster_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/messages"
)

// Two members running real Chromium: conversations started through one
// and driven through the other fill both members' sessions and never more
// (each member's own count, and the cluster's), the next one is refused
// with too_many_sessions naming the cluster's limit, and a released
// session's place is taken again.
func TestTwoMembersWithChromiumHoldSessionsWithinTheirCapacity(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Shelf</title><h1>Shelf of the cluster</h1><a href="/next">Next chapter</a>`)
	}))
	t.Cleanup(page.Close)
	env := []string{"BUDDI_DRIVER=playwright", "BUDDI_PREVIEW_ORIGINS=" + page.URL,
		"BUDDI_BROWSER_NO_SANDBOX=" + os.Getenv("BUDDI_BROWSER_NO_SANDBOX")}
	etcd := etcdtest.Start(t)
	a := startMember(t, etcd, "a", "", env...)
	a.agent = a.AddAgent(t, "ada", false)
	b := startMember(t, etcd, "b", a.agent, env...)
	b.eventually(t, messages.CodeNoTask)
	members := []*member{a, b}
	limit := 0
	for _, m := range members {
		limit += m.health(t).Capacity.Sessions.Total
	}
	if limit == 0 {
		t.Fatal("the members report no session capacity")
	}

	for i := range limit {
		conv := fmt.Sprintf("chr-%d", i)
		owner, via := members[i%2], members[(i+1)%2]
		owner.Task(t, "ada", conv, 20)
		if r := via.Act(t, via.agent, conv, map[string]any{"action": "navigate", "url": page.URL}); !r.OK {
			t.Fatalf("navigate %s through %s: %s: %s", conv, via.name, r.Code(), r.Error.Message)
		}
		if tree := fmt.Sprint(via.Observe(t, via.agent, conv)["text"]); !strings.Contains(tree, "Shelf of the cluster") {
			t.Fatalf("%s observed through %s does not show the page:\n%s", conv, via.name, tree)
		}
	}
	held := 0
	for _, m := range members {
		sessions := m.health(t).Capacity.Sessions
		if sessions.InUse > sessions.Total {
			t.Fatalf("%s holds %d sessions, more than its %d", m.name, sessions.InUse, sessions.Total)
		}
		held += sessions.InUse
		if listed := len(m.sessions(t)); listed != limit {
			t.Fatalf("%s's owner API lists %d sessions; every member lists all %d", m.name, listed, limit)
		}
	}
	if held != limit {
		t.Fatalf("the members hold %d sessions in all, want %d", held, limit)
	}

	r, err := a.Do("POST", "/api/tasks", a.Owner, messages.OwnerBody{Agent: "ada", Conversation: "one-more", Description: "past the limit", Steps: 5, Minutes: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("2 members hold at most %d sessions", limit)
	if r.Code() != messages.CodeTooManySessions || !strings.Contains(r.Error.Message, want) {
		t.Fatalf("a task past the cluster's limit answered %q (%v); want too_many_sessions saying %q", r.Code(), r.Error, want)
	}

	b.Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: "chr-0"})
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		r, err := b.Do("POST", "/api/tasks", b.Owner, messages.OwnerBody{Agent: "ada", Conversation: "one-more", Description: "in the freed place", Steps: 5, Minutes: 5})
		if err != nil {
			t.Fatal(err)
		}
		if r.OK {
			break
		}
		if r.Code() != messages.CodeTooManySessions || time.Now().After(deadline) {
			t.Fatalf("a task after a release answered %q (%v)", r.Code(), r.Error)
		}
	}
	b.Observe(t, b.agent, "one-more")
}
