package routes_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/messages"
)

// A session working on an act is listed working with the act's steps, on
// top of what it showed last, only when that is all that changed; the next
// state it shows replaces it.
func TestAWorkingSessionIsListedOnTopOfItsLastState(t *testing.T) {
	ready := messages.SessionInfo{Conversation: "c1", Agent: "ada", State: messages.StateReady, Task: "read the docs",
		StepsUsed: 3, StepsMax: 80, Expires: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC), URL: "https://a.example/",
		PageAt: time.Date(2030, 1, 1, 11, 0, 0, 0, time.UTC)}
	working := ready
	working.State, working.StepsUsed = messages.StateWorking, 5
	with := func(change func(*messages.SessionInfo)) messages.SessionInfo {
		i := working
		change(&i)
		return i
	}
	cases := map[string]struct {
		info messages.SessionInfo
		took bool
	}{
		"only the state and steps changed": {working, true},
		"the page changed":                 {with(func(i *messages.SessionInfo) { i.URL = "https://b.example/" }), false},
		"the task changed":                 {with(func(i *messages.SessionInfo) { i.Task = "another" }), false},
		"the budget changed":               {with(func(i *messages.SessionInfo) { i.StepsMax = 90 }), false},
		"the lifetime changed":             {with(func(i *messages.SessionInfo) { i.Expires = i.Expires.Add(time.Minute) }), false},
		"the page's time changed":          {with(func(i *messages.SessionInfo) { i.PageAt = i.PageAt.Add(time.Second) }), false},
		"a state other than working":       {with(func(i *messages.SessionInfo) { i.State = messages.StatePaused }), false},
		"no steps":                         {with(func(i *messages.SessionInfo) { i.StepsUsed = 0 }), false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := &routes.Session{}
			if s.ShowWorking(working) {
				t.Fatal("a session that showed nothing yet took a working state on top of nothing")
			}
			s.Show(ready)
			if got := s.ShowWorking(c.info); got != c.took {
				t.Fatalf("ShowWorking took it: %v, want %v", got, c.took)
			}
			want := ready
			if c.took {
				want = c.info
			}
			if got := s.Shown(); got != want {
				t.Fatalf("listed %+v, want %+v", got, want)
			}
			next := ready
			next.StepsUsed, next.URL = 5, "https://c.example/"
			s.ShowShared(&next)
			if got := s.Shown(); got != next {
				t.Fatalf("after the next state, listed %+v, want it", got)
			}
		})
	}
}

// A reader of the list never sees a state the session was not in: the
// working steps of one act over the state shown before another.
func TestAWorkingSessionIsListedWholeWhileItShowsItself(t *testing.T) {
	s := &routes.Session{}
	page := func(n int) string { return fmt.Sprintf("https://a.example/%d", n) }
	s.Show(messages.SessionInfo{Conversation: "c1", State: messages.StateReady, URL: page(0)})
	const acts = 20000
	var wg sync.WaitGroup
	wg.Go(func() {
		for n := 1; n <= acts; n++ {
			ready := messages.SessionInfo{Conversation: "c1", State: messages.StateReady, StepsUsed: 2 * n, URL: page(n)}
			s.ShowShared(&ready)
			working := ready
			working.State, working.StepsUsed = messages.StateWorking, 2*n+1
			if !s.ShowWorking(working) {
				t.Error("a working state that only adds steps was not taken")
				return
			}
		}
	})
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var seen [2]int
	for {
		select {
		case <-done:
			t.Logf("%d ready and %d working states read", seen[0], seen[1])
			return
		default:
		}
		got := s.Shown()
		n, state := got.StepsUsed/2, messages.StateReady
		if got.StepsUsed%2 == 1 {
			state = messages.StateWorking
		}
		if got.State != state || got.URL != page(n) {
			t.Fatalf("listed %s with %d steps on %s: the session was never so", got.State, got.StepsUsed, got.URL)
		}
		seen[got.StepsUsed%2]++
	}
}
