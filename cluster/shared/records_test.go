package shared_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

func TestOfTwoMembersCreatingOneNameExactlyOneSucceeds(t *testing.T) {
	srv := etcdtest.Start(t)
	a, b := open(t, srv), open(t, srv)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*shared.Store{a, b} {
		wg.Go(func() {
			_, errs[i] = s.Create(ctxFor(t), shared.Agents, "scout", []byte(`{"member":"`+string(rune('A'+i))+`"}`))
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, shared.ErrExists):
			t.Fatalf("create: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d creates of one name succeeded, want 1: %v", won, errs)
	}
}

func TestAWriteFromAStaleReadIsRefused(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	rev, err := s.Create(ctxFor(t), shared.Tasks, "c1", []byte(`1`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIf(ctxFor(t), shared.Tasks, "c1", []byte(`2`), rev); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIf(ctxFor(t), shared.Tasks, "c1", []byte(`3`), rev); !errors.Is(err, shared.ErrChanged) {
		t.Fatalf("a write checked against an old revision answered %v, want ErrChanged", err)
	}
	r, ok, err := s.Get(ctxFor(t), shared.Tasks, "c1")
	if err != nil || !ok || string(r.Value) != "2" {
		t.Fatalf("c1 = %q %v %v, want the second write's", r.Value, ok, err)
	}
	old, found, err := s.Swap(ctxFor(t), shared.Tasks, "c1", []byte(`4`))
	if err != nil || !found || string(old.Value) != "2" {
		t.Fatalf("swap answered %q %v %v, want the value it replaced", old.Value, found, err)
	}
}

func TestARecordNameThatIsAPathIsRefused(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	for _, name := range []string{"my_agent", "conv_1.v2", "a-b:c@d"} { // what agent names and conversation ids may be
		if _, err := s.Create(ctxFor(t), shared.Agents, name, []byte(`{}`)); err != nil {
			t.Errorf("name %q: %v", name, err)
		}
	}
	for _, name := range []string{"", "../stop", "a/b", strings.Repeat("x", 256)} {
		if _, err := s.Create(ctxFor(t), shared.Agents, name, []byte(`{}`)); err == nil || errors.Is(err, shared.ErrExists) {
			t.Errorf("name %q: %v, want a refusal", name, err)
		}
	}
	if _, ok, _ := s.Get(ctxFor(t), shared.Agents, "stop"); ok {
		t.Fatal("a refused name wrote a record")
	}
}

func TestWatchListDeliversTheWholeListOnEveryChange(t *testing.T) {
	srv := etcdtest.Start(t)
	a, b := open(t, srv), open(t, srv)
	lists := make(chan []shared.Record, 64)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := b.WatchList(ctx, shared.Agents, func(rs []shared.Record, _ int64) { lists <- rs }); err != nil {
		t.Fatal(err)
	}
	if first := <-lists; len(first) != 0 {
		t.Fatalf("first list %v, want empty", first)
	}
	names := func(rs []shared.Record) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name+"="+string(r.Value))
		}
		return strings.Join(out, ",")
	}
	for _, want := range []string{"one=1", "one=1,two=2", "two=2"} {
		switch want {
		case "one=1":
			_, _ = a.Create(ctxFor(t), shared.Agents, "one", []byte("1"))
		case "one=1,two=2":
			_, _ = a.Create(ctxFor(t), shared.Agents, "two", []byte("2"))
		default:
			_, _ = a.Delete(ctxFor(t), shared.Agents, "one")
		}
		select {
		case got := <-lists:
			if names(got) != want {
				t.Fatalf("list %q, want %q", names(got), want)
			}
		case <-ctxFor(t).Done():
			t.Fatalf("no list after the change to %q", want)
		}
	}
}

func TestOnlyTheMemberHoldingAConversationWritesItsTask(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	if _, err := s.PutAsHome(ctxFor(t), shared.Tasks, "c1", "m1", []byte(`"m1's"`)); !errors.Is(err, shared.ErrNotHome) {
		t.Fatalf("a write before any member holds c1: %v, want ErrNotHome", err)
	}
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutAsHome(ctxFor(t), shared.Tasks, "c1", "m1", []byte(`"m1's"`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m2")); err != nil { // c1 moved to m2
		t.Fatal(err)
	}
	if _, err := s.PutAsHome(ctxFor(t), shared.Tasks, "c1", "m1", []byte(`"m1's late"`)); !errors.Is(err, shared.ErrNotHome) {
		t.Fatalf("m1's write after c1 moved: %v, want ErrNotHome", err)
	}
	if r, _, _ := s.Get(ctxFor(t), shared.Tasks, "c1"); string(r.Value) != `"m1's"` {
		t.Fatalf("c1's task is %s", r.Value)
	}
}
