package native_test

import (
	"context"
	"sync"
	"testing"
	"time"

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

// slowLock is oneHolder whose Acquire waits at a gate: a call can be held
// in the middle of taking the lock while its conversation is released.
type slowLock struct {
	oneHolder
	entered, gate, releasing chan struct{}
}

func (l *slowLock) Acquire(ctx context.Context, conv string) error {
	select {
	case l.entered <- struct{}{}:
	default:
	}
	<-l.gate
	return l.oneHolder.Acquire(ctx, conv)
}

func (l *slowLock) Release(ctx context.Context, conv string) {
	select {
	case l.releasing <- struct{}{}:
	default:
	}
	l.oneHolder.Release(ctx, conv)
}

// TestAReleaseDuringACallsLockLeavesTheComputerFree: a conversation
// released while one of its calls (the owner's picture after a step) was
// taking the desktop lock does not keep the lock after the release:
// another conversation gets the computer, and the released tabs refuse
// every later call without taking it.
func TestAReleaseDuringACallsLockLeavesTheComputerFree(t *testing.T) {
	lock := &slowLock{entered: make(chan struct{}, 1), gate: make(chan struct{}), releasing: make(chan struct{}, 1)}
	f := newFake(t, native.Config{Lock: lock})
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	a, _ := f.drv.Open(ctx(t), "a")
	called := make(chan error, 1)
	go func() {
		_, err := a.Observe(ctx(t), drivers.ObserveOptions{Screenshot: true})
		called <- err
	}()
	<-lock.entered
	closed := make(chan error, 1)
	go func() { closed <- a.Close(ctx(t)) }()
	// Let the release go as far as it can before the call's lock is taken:
	// on a driver that does not wait for the call, it releases first.
	select {
	case <-lock.releasing:
	case <-time.After(200 * time.Millisecond):
	}
	close(lock.gate)
	<-called
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	lock.mu.Lock()
	holder := lock.holder
	lock.mu.Unlock()
	if holder != "" {
		t.Fatalf("after the release the lock is held by %q", holder)
	}
	_, err := a.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
	b, _ := f.drv.Open(ctx(t), "b")
	f.observe(b)
}
