package native_test

import (
	"context"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/native/protocol"
)

// oneHolder is a desktop lock for the driver's tests: the first
// conversation holds it until it releases.
type oneHolder struct {
	mu     sync.Mutex
	holder string
}

func (l *oneHolder) Acquire(_ context.Context, conv string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder != "" && l.holder != conv {
		return drivers.Errorf(drivers.CodeNotAllowed, nil, "Another conversation controls the computer now.")
	}
	l.holder = conv
	return nil
}

func (l *oneHolder) Release(_ context.Context, conv string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder == conv {
		l.holder = ""
	}
}

// TestLockIsHeldAcrossCallsAndNotByTheDriversClose: a second conversation
// is refused before any helper runs while the first holds the computer;
// the driver closing (a mode switch) keeps the lock with its holder, and
// the holder closing its tabs gives it back.
func TestLockIsHeldAcrossCallsAndNotByTheDriversClose(t *testing.T) {
	lock := &oneHolder{}
	f := newFake(t, native.Config{Lock: lock})
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	a, _ := f.drv.Open(ctx(t), "a")
	f.observe(a)
	f.observe(a)
	b, _ := f.drv.Open(ctx(t), "b")
	_, err := b.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeNotAllowed)
	if n := len(f.requests(protocol.CallObserve)); n != 2 {
		t.Fatalf("the helper observed %d times, want 2 (none for the refused conversation)", n)
	}

	if err := f.drv.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ = f.drv.Open(ctx(t), "b")
	_, err = b.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeNotAllowed)

	a, _ = f.drv.Open(ctx(t), "a")
	if err := a.Close(ctx(t)); err != nil {
		t.Fatal(err)
	}
	f.observe(b)
}
