package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// interrupted runs call and calls Interrupt until it returns. With hour-long
// latencies only Interrupt can end the call.
func interrupted(t *testing.T, tabs drivers.Tabs, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			tabs.Interrupt()
		}
	}
}

func TestInterruptDuringLatency(t *testing.T) {
	_, tabs := open(t, sim.Config{Latency: time.Hour})
	err := interrupted(t, tabs, func() error {
		_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
		return err
	})
	wantCode(t, err, drivers.CodeInterrupted)
}

func TestInterruptDropsPendingNavigation(t *testing.T) {
	_, tabs := open(t, sim.Config{LoadLatency: time.Hour})
	err := interrupted(t, tabs, func() error {
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Navigate, URL: "https://sim.localhost/p/3", Timeout: 2 * time.Hour})
		return err
	})
	wantCode(t, err, drivers.CodeInterrupted)
	if obs := observe(t, tabs); obs.URL != sim.BlankURL {
		t.Fatalf("interrupted navigation committed: %s", obs.URL)
	}
}

func TestCloseInterrupts(t *testing.T) {
	_, tabs := open(t, sim.Config{Latency: time.Hour})
	done := make(chan error, 1)
	go func() {
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Navigate, URL: "https://sim.localhost/p/3"})
		done <- err
	}()
	for {
		tabs.Close(context.Background())
		select {
		case err := <-done:
			if c := drivers.CodeOf(err); c != drivers.CodeInterrupted && c != drivers.CodeNoBrowser {
				t.Fatalf("code = %q (%v)", c, err)
			}
			return
		case <-time.After(time.Millisecond):
		}
	}
}

func TestContextEndsWait(t *testing.T) {
	_, tabs := open(t, sim.Config{Latency: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err := tabs.Observe(ctx, drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTimeout)
}
