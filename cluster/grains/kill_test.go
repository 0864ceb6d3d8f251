package grains_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

// memberChildEnv makes the test binary a member that joins and waits to
// be killed; its value is etcd's endpoint, then optionally a space and
// the member's capacity.
const memberChildEnv = "BUDDI_GRAINS_TEST_MEMBER"

func TestMain(m *testing.M) {
	if endpoint := os.Getenv(memberChildEnv); endpoint != "" {
		os.Exit(runMemberChild(endpoint))
	}
	os.Exit(m.Run())
}

// runMemberChild joins the cluster, prints its address and waits.
func runMemberChild(value string) int {
	endpoint, capacity, _ := strings.Cut(value, " ")
	r, err := newTypes(true)
	cfg := config(endpoint, r)
	if err == nil && capacity != "" {
		cfg.Capacity, err = strconv.Atoi(capacity)
	}
	if err == nil {
		var m *grains.Member
		if m, err = grains.Start(cfg); err == nil {
			fmt.Println(m.Address())
			select {}
		}
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// startChild runs a member holding at most capacity sessions (0: no
// limit) in a process of its own and returns it with its address.
func startChild(t *testing.T, endpoint string, capacity int) (*exec.Cmd, string) {
	t.Helper()
	cmd, line := etcdtest.Child(t, memberChildEnv, endpoint+" "+strconv.Itoa(capacity))
	if !strings.HasPrefix(line, "127.0.0.1:") {
		t.Fatalf("the member process said %q", line)
	}
	return cmd, line
}

func TestAGrainWhoseMemberWasKilledIsActivatedAgainElsewhere(t *testing.T) {
	srv, ms := cluster(t, 2)
	child, addr := startChild(t, srv.Endpoint(), 0)
	waitFor(t, "every member to route to the child", func() bool {
		for _, m := range ms {
			if len(m.Members()) != 3 {
				return false
			}
		}
		return true
	})
	id := ""
	for i := range 100 {
		if c := count(t, ms[0], fmt.Sprintf("k-%d", i), &Incr{}); c.Addr == addr {
			id = c.Identity
			break
		}
	}
	if id == "" {
		t.Fatalf("none of 100 sessions was placed on the child at %s", addr)
	}
	if c := count(t, ms[1], id, &Incr{}); c.N != 2 || c.Addr != addr {
		t.Fatalf("%s counted %d on %s before the kill, not 2 on %s", id, c.N, c.Addr, addr)
	}

	killed := time.Now()
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	after := incrUntilAnswered(t, ms[1], id)
	t.Logf("%s answered again from %s %v after its member was killed", id, after.Addr, time.Since(killed))
	if after.Addr != ms[0].Address() && after.Addr != ms[1].Address() {
		t.Errorf("after the kill %s answered from %s, not from a remaining member", id, after.Addr)
	}
	if after.N != 1 {
		t.Errorf("the new activation counted %d, not 1: its state should start afresh (restarted)", after.N)
	}
	if c := count(t, ms[0], id, &Incr{}); c.N != 2 || c.Addr != after.Addr {
		t.Errorf("through the other member %s counted %d on %s, not 2 on %s", id, c.N, c.Addr, after.Addr)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, patience)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
