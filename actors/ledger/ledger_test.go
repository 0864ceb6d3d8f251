package ledger_test

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
)

// TestMain doubles as the child process of the kill -9 test.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LEDGER_CHILD_DIR"); dir != "" {
		if os.Getenv("LEDGER_CHILD_LAZY") != "" {
			lazyChild(dir)
		}
		child(dir)
		return
	}
	os.Exit(m.Run())
}

// childLedger opens the child's store and starts its ledger.
func childLedger(dir string) (*ledger.Store, *actor.ActorSystem, *actor.PID) {
	st, err := ledger.Open(dir)
	if err != nil {
		fmt.Println("open failed:", err)
		os.Exit(3)
	}
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	return st, sys, sys.Root.Spawn(ledger.Props(st, slog.Default(), ledger.Retention{}))
}

// child writes tasks one at a time and prints each acknowledged index.
func child(dir string) {
	_, sys, pid := childLedger(dir)
	for i := 0; ; i++ {
		conv := "c" + strconv.Itoa(i)
		res, err := ledger.Request(sys.Root, pid, &ledger.Write{Ops: []ledger.Op{
			ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv, Description: "task " + conv}),
		}}, 5*time.Second).Result()
		if err != nil || res.(*ledger.Written).Err != nil {
			fmt.Println("write failed:", err)
			os.Exit(4)
		}
		fmt.Println("ack", i)
	}
}

func TestAcknowledgedWritesSurviveKill9(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	last := -1
	st := killChild(t, dir, "", func(sc *bufio.Scanner) {
		for last < 200 && sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "ack ") {
				t.Fatalf("child said %q", line)
			}
			last, _ = strconv.Atoi(strings.TrimPrefix(line, "ack "))
		}
	})
	for i := 0; i <= last; i++ {
		task, found, err := st.Task("c" + strconv.Itoa(i))
		if err != nil || !found || task.Description != "task c"+strconv.Itoa(i) {
			t.Fatalf("acknowledged write %d of %d lost after kill -9 (found=%v err=%v)", i, last, found, err)
		}
	}
}

// killChild starts the test binary as a child writing to dir (lazily when
// lazy is set), lets read follow what it prints, kills it with SIGKILL and
// returns its store opened again.
func killChild(t *testing.T, dir, lazy string, read func(*bufio.Scanner)) *ledger.Store {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LEDGER_CHILD_DIR="+dir, "LEDGER_CHILD_LAZY="+lazy)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	read(bufio.NewScanner(out))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	st, err := ledger.Open(dir)
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// lazyChild sets lazyN step counters, as sessions do, waits
// until a commit that holds the last has returned, says so and waits to be
// killed. (Pebble shows a write once it is applied, before its fsync is
// done: only a returned commit is durable.)
func lazyChild(dir string) {
	st, _, _ := childLedger(dir)
	last := "s" + strconv.Itoa(lazyN-1)
	done := make(chan struct{})
	st.OnCommit(func(time.Duration) { // on the ledger's goroutine, after the commit returned
		if got, err := st.Steps(last); err == nil && got.Used == lazyN && done != nil {
			close(done)
			done = nil
		}
	})
	wait := done
	for i := range lazyN {
		st.SetSteps(string(ledger.StepsKey("s"+strconv.Itoa(i))), i+1)
	}
	<-wait
	fmt.Println("committed")
	select {}
}

const lazyN = 50

// TestCommittedStepCountersSurviveKill9 kills a process whose ledger has
// committed step counters (nobody is told when): the
// store opened again holds every one. (A write Pebble does not sync stays
// in its log's buffer in the process: the counters were lost.)
func TestCommittedStepCountersSurviveKill9(t *testing.T) {
	st := killChild(t, filepath.Join(t.TempDir(), "state"), "1", func(sc *bufio.Scanner) {
		if !sc.Scan() || sc.Text() != "committed" {
			t.Fatalf("child said %q (%v)", sc.Text(), sc.Err())
		}
	})
	for i := range lazyN {
		if got, err := st.Steps("s" + strconv.Itoa(i)); err != nil || got.Used != i+1 {
			t.Fatalf("step counter %d of %d, committed before the kill, reads %d after it (%v)", i, lazyN, got.Used, err)
		}
	}
}

func TestConcurrentWritersAreSerialised(t *testing.T) {
	st, pid, sys := open(t)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				// Every writer rewrites the same two keys in one batch; a torn
				// interleaving would leave them disagreeing.
				v := fmt.Sprintf("w%d-%d", w, i)
				res, err := ledger.Request(sys.Root, pid, &ledger.Write{Ops: []ledger.Op{
					ledger.Put(ledger.TaskKey("a"), ledger.Task{Description: v}),
					ledger.Put(ledger.TaskKey("b"), ledger.Task{Description: v}),
					ledger.Put(ledger.TaskKey(v), ledger.Task{Description: v}),
				}}, 5*time.Second).Result()
				if err != nil || res.(*ledger.Written).Err != nil {
					t.Errorf("write %s: %v", v, err)
				}
			}
		}(w)
	}
	wg.Wait()
	a, _, _ := st.Task("a")
	b, _, _ := st.Task("b")
	if a.Description != b.Description {
		t.Fatalf("batches interleaved: a=%q b=%q", a.Description, b.Description)
	}
	tasks, err := st.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(tasks), writers*each+2; got != want {
		t.Fatalf("have %d records, want %d", got, want)
	}
}

func TestDeleteAndList(t *testing.T) {
	st, pid, sys := open(t)
	write(t, sys, pid, ledger.Put(ledger.AgentKey("x"), ledger.Agent{Name: "x"}), ledger.Put(ledger.AgentKey("y"), ledger.Agent{Name: "y"}))
	write(t, sys, pid, ledger.Delete(ledger.AgentKey("x")))
	agents, err := st.Agents()
	if err != nil || len(agents) != 1 || agents[0].Name != "y" {
		t.Fatalf("agents = %+v, %v; want only y", agents, err)
	}
	stop, err := st.Stop()
	if err != nil || stop.Stopped {
		t.Fatalf("fresh store reads stopped=%v err=%v", stop.Stopped, err)
	}
}

func TestStoreModesAndLocking(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	st, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("store dir mode %v, want 0700", fi.Mode().Perm())
	}
	if _, err := ledger.Open(dir); err == nil {
		t.Fatal("a second open of a store in use succeeded")
	}
}

func TestCorruptStoreIsAnError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	st, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "MANIFEST") {
			if err := os.WriteFile(filepath.Join(dir, e.Name()), []byte("garbage, not a manifest"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err = ledger.Open(dir)
	if err == nil {
		t.Fatal("opening a store with a garbage MANIFEST succeeded")
	}
}

func open(t testing.TB) (*ledger.Store, *actor.PID, *actor.ActorSystem) {
	t.Helper()
	st, err := ledger.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	pid := sys.Root.Spawn(ledger.Props(st, slog.Default(), ledger.Retention{}))
	t.Cleanup(func() {
		_ = sys.Root.PoisonFuture(pid).Wait()
		sys.Shutdown()
		st.Close()
	})
	return st, pid, sys
}

func write(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, ops ...ledger.Op) {
	t.Helper()
	res, err := ledger.Request(sys.Root, pid, &ledger.Write{Ops: ops}, 5*time.Second).Result()
	if err != nil || res.(*ledger.Written).Err != nil {
		t.Fatalf("write: %v", err)
	}
}

// The store's contents are its records as they are now: a record written
// over many times, and one deleted, count as what is left, though the
// write-ahead log still holds every value written (Pebble's live size).
func TestContentsAreTheRecordsLeftNotTheWritesMade(t *testing.T) {
	st, pid, sys := open(t)
	long := strings.Repeat("x", 2048)
	for range 20 {
		write(t, sys, pid, ledger.Put(ledger.AgentKey("ada"), ledger.Agent{Name: long}))
	}
	write(t, sys, pid, ledger.Put(ledger.AgentKey("ada"), ledger.Agent{Name: "ada"}),
		ledger.Put(ledger.AgentKey("bob"), ledger.Agent{Name: long}),
		ledger.Put(ledger.StepsKey("c1"), ledger.Steps{Used: 7}))
	write(t, sys, pid, ledger.Delete(ledger.AgentKey("bob")))

	c, err := st.Contents()
	if err != nil {
		t.Fatal(err)
	}
	n, err := st.Records()
	if err != nil || n != 2 || c.Records != 2 {
		t.Fatalf("records: %d and %d (%v); want 2, the agent and the counter", n, c.Records, err)
	}
	if c.Bytes == 0 || c.Bytes > 512 {
		t.Fatalf("the two records left take %d bytes; want the short agent and the counter, not what was written over (Pebble's live size is %d)", c.Bytes, st.Size().Live)
	}
}
