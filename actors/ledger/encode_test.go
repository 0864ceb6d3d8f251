package ledger

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors"
)

// oldFormat is a value as the store wrote it before values were encoded
// in one buffer: the version byte, then json.Marshal's bytes.
func oldFormat(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte{valueVersion}, b...)
}

// storedValues are records with what JSON escapes or writes its own way:
// HTML, line separators, invalid UTF-8, times, durations, omitted fields.
var storedValues = map[string]any{
	"task": Task{Conversation: "c<1>&", Agent: "agent \u2028 \u00e9", Description: "a \"b\"\n\xff", State: "active",
		MaxSteps: 3, Lifetime: time.Hour, Created: time.Date(2026, 12, 3, 7, 0, 0, 5, time.UTC)},
	"session": Session{Conversation: "c", ID: "s", Expires: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600)), Paused: true, Epoch: 7},
	"steps":   Steps{Used: 12},
	"empty":   Task{},
	"string":  "plain </script>",
	"nil":     nil,
	"map":     map[string]int{"b": 2, "a": 1},
}

func TestEncoderWritesTheOldFormat(t *testing.T) {
	var e encoder
	e.reset()
	type span struct{ start, end int }
	spans := map[string]span{}
	for name, v := range storedValues {
		start, end, err := e.add(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		spans[name] = span{start, end}
	}
	for name, s := range spans {
		if got := e.buf.Bytes()[s.start:s.end]; !bytes.Equal(got, oldFormat(t, storedValues[name])) {
			t.Errorf("%s stored as %q, want %q", name, got, oldFormat(t, storedValues[name]))
		}
	}
}

func TestEncoderRefusalLeavesTheBuffer(t *testing.T) {
	var e encoder
	if _, _, err := e.add(Steps{Used: 1}); err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(e.buf.Bytes())
	for _, v := range []any{math.NaN(), make(chan int)} {
		if _, _, err := e.add(v); err == nil {
			t.Fatalf("encoding %T succeeded", v)
		}
	}
	if !bytes.Equal(e.buf.Bytes(), before) {
		t.Fatalf("buffer = %q after refusals, want %q", e.buf.Bytes(), before)
	}
}

// A store written before values were encoded in one buffer reads as it
// did, and a write through the actor stores the same bytes it would have.
func TestStoreReadsOldFormatRecords(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	pid := sys.Root.Spawn(Props(st, slog.New(slog.DiscardHandler), Retention{}))
	t.Cleanup(func() {
		_ = sys.Root.PoisonFuture(pid).Wait()
		sys.Shutdown()
		_ = st.Close()
	})
	old := storedValues["task"].(Task)
	if err := st.db.Set(TaskKey("old"), oldFormat(t, old), nil); err != nil {
		t.Fatal(err)
	}
	var want Task // as json.Unmarshal reads the old record
	if err := json.Unmarshal(oldFormat(t, old)[1:], &want); err != nil {
		t.Fatal(err)
	}
	got, found, err := st.Task("old")
	if err != nil || !found || !bytes.Equal(oldFormat(t, got), oldFormat(t, want)) {
		t.Fatalf("old record read as %q, %v, %v; want %q", oldFormat(t, got), found, err, oldFormat(t, want))
	}
	session := storedValues["session"].(Session)
	w := &Write{Ops: []Op{Put(TaskKey("new"), old), Delete(TaskKey("gone")), Put(SessionKey("new"), session)}}
	if err := Check(Request(sys.Root, pid, w, 5*time.Second).Result()); err != nil {
		t.Fatal(err)
	}
	for key, v := range map[string]any{string(TaskKey("new")): old, string(SessionKey("new")): session} {
		raw, closer, err := st.db.Get([]byte(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if want := oldFormat(t, v); !bytes.Equal(raw, want) {
			t.Errorf("%s stored as %q, want %q", key, raw, want)
		}
		_ = closer.Close()
	}
}

// BenchmarkEncode measures one session record encoded for the store: into
// the reused buffer, and as before, marshalled and then copied after the
// version byte.
func BenchmarkEncode(b *testing.B) {
	v := storedValues["session"]
	b.Run("buffer", func(b *testing.B) {
		b.ReportAllocs()
		var e encoder
		for b.Loop() {
			e.reset()
			if _, _, err := e.add(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal-copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			raw, err := json.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			_ = append([]byte{valueVersion}, raw...)
		}
	})
}

// A task that has not started stores no start or expiry, and one stored
// with them written out as year 1 (before they were left out) reads as
// not started.
func TestATaskThatHasNotStartedStoresNoTimes(t *testing.T) {
	var e encoder
	e.reset()
	start, end, err := e.add(Task{Conversation: "c", State: "pending"})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.buf.Bytes()[start:end]; bytes.Contains(got, []byte(`"started"`)) || bytes.Contains(got, []byte(`"expires"`)) {
		t.Errorf("stored %s", got)
	}
	var old Task
	if err := json.Unmarshal([]byte(`{"conversation":"c","state":"pending","started":"0001-01-01T00:00:00Z","expires":"0001-01-01T00:00:00Z"}`), &old); err != nil {
		t.Fatal(err)
	}
	if !old.Started.IsZero() || !old.Expires.IsZero() {
		t.Errorf("read as started %v, expires %v", old.Started, old.Expires)
	}
}
