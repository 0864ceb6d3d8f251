package grains_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

func TestAGrainCalledThroughTwoMembersIsOneActivation(t *testing.T) {
	_, ms := cluster(t, 2)
	a, b := ms[0], ms[1]
	first := count(t, a, "c1", &Incr{})
	second := count(t, b, "c1", &Incr{})
	if first.N != 1 || second.N != 2 {
		t.Errorf("the counter answered %d through A then %d through B, not 1 then 2", first.N, second.N)
	}
	if first.Addr != second.Addr || first.Identity != "c1" || second.Identity != "c1" {
		t.Errorf("A reached %s on %s and B reached %s on %s; both should reach c1's one activation",
			first.Identity, first.Addr, second.Identity, second.Addr)
	}
	if first.Addr != a.Address() && first.Addr != b.Address() {
		t.Errorf("c1 runs on %s, which is neither member (%s, %s)", first.Addr, a.Address(), b.Address())
	}
}

func TestPlacementSpreadsIdentitiesOverMembers(t *testing.T) {
	_, ms := cluster(t, 2)
	held := map[string]int{}
	for i := range 20 {
		id := fmt.Sprintf("conv-%d", i)
		via0, via1 := count(t, ms[0], id, &Where{}), count(t, ms[1], id, &Where{})
		if via0.Addr != via1.Addr {
			t.Errorf("%s is on %s through one member and on %s through the other", id, via0.Addr, via1.Addr)
		}
		held[via0.Addr]++
	}
	for _, m := range ms {
		if held[m.Address()] == 0 {
			t.Errorf("member %s holds none of 20 sessions; placement: %v", m.Address(), held)
		}
	}
	if len(held) != 2 {
		t.Errorf("sessions were placed on %v, not on the two members only", held)
	}
}

func TestAGrainWhoseMemberLeftIsActivatedAgainElsewhere(t *testing.T) {
	for name, graceful := range map[string]bool{"graceful": true, "hard": false} {
		t.Run(name, func(t *testing.T) { leave(t, graceful) })
	}
}

// leave shuts down the member holding c1 and calls c1 through the others.
func leave(t *testing.T, graceful bool) {
	_, ms := cluster(t, 3)
	count(t, ms[0], "c1", &Incr{})
	before := count(t, ms[1], "c1", &Incr{})
	if before.N != 2 {
		t.Fatalf("c1 counted %d before its member left, not 2", before.N)
	}
	var holder *grains.Member
	var others []*grains.Member
	for _, m := range ms {
		if m.Address() == before.Addr {
			holder = m
		} else {
			others = append(others, m)
		}
	}
	if holder == nil {
		t.Fatalf("c1 runs on %s, which is none of the members", before.Addr)
	}
	left := time.Now()
	holder.Shutdown(graceful)
	gone := time.Now()
	if _, err := holder.Request(context.Background(), "c1", &Incr{}); !errors.Is(err, grains.ErrClosed) {
		t.Errorf("a request through the member that left answered %v, not ErrClosed", err)
	}

	after := incrUntilAnswered(t, others[0], "c1")
	t.Logf("c1 answered again from %s %v after %s began to leave, %v after its Shutdown returned",
		after.Addr, time.Since(left), before.Addr, time.Since(gone))
	if after.Addr == before.Addr || after.Addr != others[0].Address() && after.Addr != others[1].Address() {
		t.Errorf("after %s left, c1 answered from %s, not from a remaining member", before.Addr, after.Addr)
	}
	if after.N != 1 {
		t.Errorf("the new activation counted %d, not 1: its state should start afresh (restarted)", after.N)
	}
	again := count(t, others[1], "c1", &Incr{})
	if again.N != 2 || again.Addr != after.Addr {
		t.Errorf("through the third member c1 counted %d on %s, not 2 on %s", again.N, again.Addr, after.Addr)
	}
}

// incrUntilAnswered retries while the cluster has not yet seen the
// member leave (a request then goes to the member that is gone, and is
// not answered); a retried Incr the grain had seen would count twice.
func incrUntilAnswered(t *testing.T, m *grains.Member, id string) *Count {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		reply, err := m.Request(ctx, id, &Incr{})
		cancel()
		if err == nil {
			c, ok := reply.(*Count)
			if !ok {
				t.Fatalf("Incr answered %T, not *Count", reply)
			}
			return c
		}
		if !errors.Is(err, grains.ErrUnavailable) && !errors.Is(err, grains.ErrNoAnswer) {
			t.Fatalf("Incr through %s: %v", m.Address(), err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not activated again within %v: %v", id, patience, err)
		}
	}
}

func TestAFailureAnswerIsTheRequestsError(t *testing.T) {
	_, ms := cluster(t, 2)
	for _, m := range ms {
		_, err := m.Request(context.Background(), "c1", &Refuse{})
		var f *grains.Failure
		if !errors.As(err, &f) || f.Code != "paused" {
			t.Errorf("Refuse through %s answered %v, not the grain's paused Failure", m.Address(), err)
		}
	}
}

func TestUnregisteredMessagesAreRefusedWithAnError(t *testing.T) {
	_, ms := cluster(t, 2)
	ctx := context.Background()
	var unknown *grains.UnknownTypeError
	if _, err := ms[0].Request(ctx, "c1", &unregistered{}); !errors.As(err, &unknown) {
		t.Errorf("an unregistered request answered %v, not an UnknownTypeError", err)
	}
	if _, err := ms[0].Request(ctx, "c1", Incr{}); !errors.As(err, &unknown) {
		t.Errorf("a value where a pointer is registered answered %v, not an UnknownTypeError", err)
	}
	for _, m := range ms {
		_, err := m.Request(ctx, "c1", &Odd{})
		var f *grains.Failure
		if !errors.As(err, &unknown) && (!errors.As(err, &f) || f.Code != grains.CodeUnknownType) {
			t.Errorf("an unregistered answer through %s came back as %v, not an unknown-type error", m.Address(), err)
		}
	}
	if c := count(t, ms[1], "c1", &Incr{}); c.N != 1 {
		t.Errorf("after refused messages c1 counted %d, not 1", c.N)
	}
}

func TestAMemberRefusesATypeItDoesNotKnow(t *testing.T) {
	srv, _ := cluster(t, 0)
	full := start(t, srv, types(t, true))
	partial := start(t, srv, types(t, false))
	waitMembers(t, full, partial)
	id := ""
	for i := range 100 {
		if c := count(t, full, fmt.Sprintf("p-%d", i), &Where{}); c.Addr == partial.Address() {
			id = c.Identity
			break
		}
	}
	if id == "" {
		t.Fatal("none of 100 sessions was placed on the second member")
	}
	_, err := full.Request(context.Background(), id, &Incr{})
	var f *grains.Failure
	if !errors.As(err, &f) || f.Code != grains.CodeUnknownType {
		t.Errorf("Incr to a member without it answered %v, not an unknown_type Failure", err)
	}
	if c := count(t, full, id, &Where{}); c.N != 0 {
		t.Errorf("the refused Incr reached the grain: it counts %d", c.N)
	}
}

// A request ends when its context does: not sent (ErrUnavailable) if the
// context ended first, not answered (ErrNoAnswer) once sent.
func TestARequestEndsWithItsContext(t *testing.T) {
	_, ms := cluster(t, 2)
	count(t, ms[0], "c1", &Where{}) // activated: the next call waits on the grain only
	for _, m := range ms {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		go cancel()
		// the counter never answers a Count
		_, err := m.Request(ctx, "c1", &Count{})
		if !errors.Is(err, context.Canceled) || !errors.Is(err, grains.ErrNoAnswer) && !errors.Is(err, grains.ErrUnavailable) {
			t.Errorf("a request through %s whose context was cancelled answered %v, not Canceled", m.Address(), err)
		}
		cancel()
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	if _, err := ms[0].Request(expired, "c1", &Where{}); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, grains.ErrUnavailable) {
		t.Errorf("a request past its deadline answered %v, not an unsent DeadlineExceeded", err)
	}
	for _, m := range ms {
		short, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := m.Request(short, "c1", &Count{})
		cancel()
		if !errors.Is(err, grains.ErrNoAnswer) {
			t.Errorf("a request through %s the grain never answers ended with %v, not ErrNoAnswer", m.Address(), err)
		}
	}
}

func TestStartFailsWithAnErrorAndLeavesTheClusterAsItWas(t *testing.T) {
	srv, ms := cluster(t, 1)
	taken := config(srv.Endpoint(), types(t, true))
	_, port, _ := strings.Cut(ms[0].Address(), ":")
	taken.Port, _ = strconv.Atoi(port)
	if m, err := grains.Start(taken); err == nil {
		m.Shutdown(false)
		t.Fatalf("a member joined on %s, a port another member holds", ms[0].Address())
	}
	noEtcd := config("http://"+etcdtest.FreeAddr(t), types(t, true))
	noEtcd.DialTimeout = 500 * time.Millisecond
	if m, err := grains.Start(noEtcd); err == nil {
		m.Shutdown(false)
		t.Fatal("a member joined a cluster whose etcd does not listen")
	}
	if got := ms[0].Members(); len(got) != 1 {
		t.Errorf("after two failed starts the member routes to %v, not to itself alone", got)
	}
	if c := count(t, ms[0], "c1", &Incr{}); c.N != 1 || c.Addr != ms[0].Address() {
		t.Errorf("after two failed starts c1 counted %d on %s, not 1 on %s", c.N, c.Addr, ms[0].Address())
	}
}

// A member whose membership service does not answer, or is not known,
// does not start, and says which it is; outside a pod, the k8s
// membership says it needs one.
func TestAMembershipThatCannotBeReachedFailsTheStartWithASentence(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	for _, tc := range []struct{ membership, want string }{
		{grains.MembershipEtcd, "does not answer"},
		{grains.MembershipK8s, map[bool]string{true: "runs only in a Kubernetes pod", false: "built without the k8s membership"}[grains.K8sLinked]},
		{"zookeeper", "no membership is called"},
		{"consul", "no membership is called"},
	} {
		cfg := config("http://"+etcdtest.FreeAddr(t), types(t, true))
		cfg.Membership, cfg.DialTimeout = tc.membership, 500*time.Millisecond
		m, err := grains.Start(cfg)
		if err == nil {
			m.Shutdown(false)
			t.Fatalf("a member joined through the %s membership, which cannot be reached", tc.membership)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("the %s membership failed the start with %q; want it to say %q", tc.membership, err, tc.want)
		}
	}
}
