package sim_test

import (
	"context"
	"errors"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// open starts a driver and one conversation; both close with the test.
func open(t testing.TB, cfg sim.Config) (*sim.Driver, *sim.Tabs) {
	t.Helper()
	d := sim.New(cfg)
	t.Cleanup(func() { d.Close() })
	tabs, err := d.Open(context.Background(), "conv-a")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return d, tabs.(*sim.Tabs)
}

func do(t testing.TB, tabs drivers.Tabs, a *drivers.Action) *drivers.Outcome {
	t.Helper()
	out, err := tabs.Do(context.Background(), a)
	if err != nil {
		t.Fatalf("Do %s: %v", a.Kind, err)
	}
	return out
}

func navigate(t testing.TB, tabs drivers.Tabs, url string) *drivers.Outcome {
	t.Helper()
	return do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: url})
}

func observe(t testing.TB, tabs drivers.Tabs) *drivers.Observation {
	t.Helper()
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{FullPage: true})
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	return obs
}

// target finds the observed element with role and name.
func target(t testing.TB, obs *drivers.Observation, role, name string) *drivers.Target {
	t.Helper()
	for _, tg := range obs.Refs {
		if tg.Role == role && tg.Name == name {
			return obs.Of(tg)
		}
	}
	t.Fatalf("no %s %q on %s", role, name, obs.URL)
	return nil
}

// wantCode fails unless err carries code.
func wantCode(t testing.TB, err error, code drivers.Code) {
	t.Helper()
	if got := drivers.CodeOf(err); got != code {
		t.Fatalf("code = %q (%v), want %q", got, err, code)
	}
}

func asError(err error, target **drivers.Error) bool { return errors.As(err, target) }
