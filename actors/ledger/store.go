package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Failures opening the store.
var (
	ErrLocked  = errors.New("ledger: store is in use by another process")
	ErrCorrupt = errors.New("ledger: store is corrupt")
)

// Store is the opened database. Read from anywhere; write only through Actor.
type Store struct {
	db   *pebble.DB
	dir  string
	hold atomic.Pointer[func()]
	seen atomic.Pointer[func(time.Duration)]

	// compacting is held while a compaction after a prune runs; closing
	// and bg let Close wait for it and refuse new ones.
	mu         sync.Mutex
	closing    bool
	compacting bool
	again      bool
	bg         sync.WaitGroup
	compacted  atomic.Uint64

	// counters are the step counters set since the ledger's last commit
	// (SetSteps).
	counters counters
}

// OnCommit sets a function the ledger calls after each commit with how long
// the commit took (the metrics' ledger write latency).
func (s *Store) OnCommit(f func(took time.Duration)) { s.seen.Store(&f) }

func (s *Store) committed(took time.Duration) {
	if f := s.seen.Load(); f != nil {
		(*f)(took)
	}
}

// BeforeCommit sets a function the ledger calls before each commit, on its
// own goroutine: the seam tests stall the ledger at. nil removes it.
func (s *Store) BeforeCommit(f func()) {
	if f == nil {
		s.hold.Store(nil)
		return
	}
	s.hold.Store(&f)
}

func (s *Store) beforeCommit() {
	if f := s.hold.Load(); f != nil {
		(*f)()
	}
}

// Open opens (creating if needed) the store in dir with owner-only modes.
func Open(dir string) (st *Store, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: create %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: restrict %s: %w", dir, err)
	}
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(fatal); ok {
				st, err = nil, fmt.Errorf("%w: %s", ErrCorrupt, string(f))
				return
			}
			panic(r)
		}
	}()
	// The same few keys (step counters, session records) are rewritten many
	// times a second under load; a larger memtable lets most overwrites die
	// in memory instead of being flushed and compacted.
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, MemTableSize: 32 << 20})
	if err != nil {
		return nil, classifyOpen(dir, err)
	}
	return &Store{db: db, dir: dir}, nil
}

func classifyOpen(dir string, err error) error {
	switch {
	case isLockError(err):
		return fmt.Errorf("%w (%s): %w", ErrLocked, dir, err)
	default:
		return fmt.Errorf("%w (%s): %w", ErrCorrupt, dir, err)
	}
}

// isLockError reports whether Pebble refused because another process holds
// the directory lock. Pebble wraps the flock errno without a sentinel.
func isLockError(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) ||
		containsAny(err.Error(), "resource temporarily unavailable", "lock held")
}

// Dir is where the store lives.
func (s *Store) Dir() string { return s.dir }

// Close closes the database, once a compaction under way has finished.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.bg.Wait()
	return s.db.Close()
}

// Size is how much the store takes, in bytes.
type Size struct {
	// Disk is the disk space of its files: tables, write-ahead logs (with
	// the one kept for reuse) and manifests.
	Disk uint64
	// Live is what its records take: the live tables and the part of the
	// write-ahead log not yet flushed to a table.
	Live uint64
}

// Size is how much the store takes now.
func (s *Store) Size() Size {
	m := s.db.Metrics()
	return Size{Disk: m.DiskSpaceUsage(), Live: m.Table.Local.LiveSize + m.WAL.Size}
}

// Records counts the records the store holds, of every kind.
func (s *Store) Records() (int, error) {
	c, err := s.Contents()
	return c.Records, err
}

// Contents is what the store's records are, whatever Pebble's files hold
// besides them (overwritten values in the write-ahead log, deletions not
// yet compacted away).
type Contents struct {
	Records int    // records of every kind
	Bytes   uint64 // their keys and values
}

// Contents reads every record the store holds.
func (s *Store) Contents() (Contents, error) {
	var c Contents
	err := s.scan(version, func(key, value []byte) error {
		c.Records++
		c.Bytes += uint64(len(key) + len(value))
		return nil
	})
	return c, err
}

// DiskSize is the disk space of the store at dir, read from its files, so
// it works while a running buddi holds the store.
func DiskSize(dir string) (uint64, error) {
	var n uint64
	err := filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		fi, err := e.Info()
		if err == nil {
			n += uint64(fi.Size())
		}
		return err
	})
	return n, err
}

// Compactions is how many compactions after a prune have finished.
func (s *Store) Compactions() uint64 { return s.compacted.Load() }

// compactSoon compacts the whole store off the caller's goroutine, so the
// space of records just deleted is given back; one compaction at a time,
// none once Close has begun.
func (s *Store) compactSoon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return
	}
	if s.compacting {
		s.again = true // what was deleted since it began is compacted next
		return
	}
	s.compacting = true
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		for {
			// A compaction that fails leaves the space to Pebble's own.
			_ = s.db.Compact(context.Background(), []byte(version), upperBound(version), false)
			s.compacted.Add(1)
			s.mu.Lock()
			again := s.again && !s.closing
			s.again, s.compacting = false, again
			s.mu.Unlock()
			if !again {
				return
			}
		}
	}()
}

// Get decodes the record at key into v; found is false when there is none.
func (s *Store) Get(key []byte, v any) (found bool, err error) {
	raw, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("ledger: read %s: %w", key, err)
	}
	defer closer.Close()
	return true, decode(key, raw, v)
}

// each calls fn with every record whose key starts with prefix, in key order.
func (s *Store) each(prefix string, fn func(raw []byte) error) error {
	return s.scan(prefix, func(_, raw []byte) error { return fn(raw) })
}

// scan is each with every record's key too.
func (s *Store) scan(prefix string, fn func(key, raw []byte) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{
		LowerBound: []byte(prefix), UpperBound: upperBound(prefix),
	})
	if err != nil {
		return fmt.Errorf("ledger: scan %s: %w", prefix, err)
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			return err
		}
	}
	return it.Error()
}

// List decodes every record under prefix into a slice of T.
func List[T any](s *Store, prefix string) ([]T, error) {
	var out []T
	err := s.each(prefix, func(raw []byte) error {
		var v T
		if err := decode([]byte(prefix), raw, &v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

func decode(key, raw []byte, v any) error {
	if len(raw) == 0 || raw[0] != valueVersion {
		return fmt.Errorf("%w: record %s has an unknown version", ErrCorrupt, key)
	}
	if err := json.Unmarshal(raw[1:], v); err != nil {
		return fmt.Errorf("%w: record %s: %w", ErrCorrupt, key, err)
	}
	return nil
}

// Path joins the data directory and the store's folder name.
func Path(dataDir string) string { return filepath.Join(dataDir, "state") }
