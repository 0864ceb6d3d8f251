package drivertest

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// Agents are two agent ids of the form the registry makes (a mode with a
// profile per agent names its directories by them).
var Agents = [2]string{"ag_00000000000000000000000000000001", "ag_00000000000000000000000000000002"}

// RunMode checks the mode contract: what the controller's profile pool and
// the sessions rely on of a Mode. It names itself and at least one
// profile; its status says which driver it is without opening anything;
// opening a profile twice gives the one driver, and a profile past its
// capacity is refused; a profile's driver opens a conversation's tabs;
// Close releases them and the mode opens again afterwards; Close within an
// ended context returns; and the optional capabilities it claims
// (profiles per agent, origins it serves) hold. The mode's browsers are
// closed when the test ends.
func RunMode(t *testing.T, m drivers.Mode) {
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	t.Run("Names", func(t *testing.T) {
		if m.Name() == "" || m.Capacity() < 1 {
			t.Fatalf("Name %q, Capacity %d; want a name and at least one profile", m.Name(), m.Capacity())
		}
	})
	t.Run("StatusNamesTheDriver", func(t *testing.T) {
		if st := m.Status(ctx(t)); st.Driver == "" {
			t.Fatalf("Status = %+v; want the driver named", st)
		}
	})
	t.Run("OneDriverPerProfile", func(t *testing.T) { onePerProfile(t, m) })
	t.Run("CloseReleasesAndOpensAgain", func(t *testing.T) { closeAndReopen(t, m) })
	t.Run("CloseWithinItsContext", func(t *testing.T) {
		c, cancel := context.WithCancel(context.Background())
		cancel()
		if err := m.Close(c); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("Close in an ended context = %v; want nil or its context's error", err)
		}
	})
	if a, ok := m.(drivers.AgentProfiles); ok {
		t.Run("AgentProfiles", func(t *testing.T) { agentProfiles(t, a) })
	}
	if s, ok := m.(drivers.Served); ok {
		t.Run("ServedOrigins", func(t *testing.T) { served(t, s) })
	}
}

func onePerProfile(t *testing.T, m drivers.Mode) {
	d := openProfile(t, m)
	again, err := m.Open(ctx(t), 0)
	if err != nil || again != d {
		t.Fatalf("opening profile 0 again gave %v (%v); want its same driver", again, err)
	}
	if _, err := m.Open(ctx(t), m.Capacity()); err == nil {
		t.Fatalf("profile %d opened; the mode has %d", m.Capacity(), m.Capacity())
	}
}

func closeAndReopen(t *testing.T, m drivers.Mode) {
	tabs := Open(t, openProfile(t, m), "dt-mode-a")
	if err := m.Close(ctx(t)); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := tabs.Observe(ctx(t), drivers.ObserveOptions{}); err == nil {
		t.Fatal("a conversation's tabs still observe after the mode closed")
	}
	Open(t, openProfile(t, m), "dt-mode-b")
}

func openProfile(t *testing.T, m drivers.Mode) drivers.Driver {
	t.Helper()
	d, err := m.Open(ctx(t), 0)
	if err != nil || d == nil {
		t.Fatalf("Open(0) = %v, %v", d, err)
	}
	return d
}

func agentProfiles(t *testing.T, a drivers.AgentProfiles) {
	if a.AgentCapacity() < 1 {
		t.Fatalf("AgentCapacity %d; want at least one", a.AgentCapacity())
	}
	first := openAgent(t, a, Agents[0])
	if again := openAgent(t, a, Agents[0]); again != first {
		t.Fatal("opening an agent's profile twice gave two drivers")
	}
	if openAgent(t, a, Agents[1]) == first {
		t.Fatal("two agents share a driver")
	}
	if err := a.CloseAgent(ctx(t), Agents[0]); err != nil {
		t.Fatalf("CloseAgent: %v", err)
	}
	Open(t, openAgent(t, a, Agents[0]), "dt-agent-a")
	if err := a.DropAgent(ctx(t), Agents[1]); err != nil {
		t.Fatalf("DropAgent: %v", err)
	}
	Open(t, openAgent(t, a, Agents[1]), "dt-agent-b")
}

func openAgent(t *testing.T, a drivers.AgentProfiles, agent string) drivers.Driver {
	t.Helper()
	d, err := a.OpenAgent(ctx(t), agent)
	if err != nil || d == nil {
		t.Fatalf("OpenAgent(%s) = %v, %v", agent, d, err)
	}
	return d
}

func served(t *testing.T, s drivers.Served) {
	origins := s.ServedOrigins()
	if len(origins) == 0 {
		t.Fatal("the mode serves no origin")
	}
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			t.Errorf("served origin %q is not an http(s) origin", o)
		}
	}
}
