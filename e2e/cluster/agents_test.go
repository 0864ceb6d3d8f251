package cluster_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// Agents added at once through one member are each known there from the
// add's answer on: a task started for one right after is not refused as
// unknown, and its token is not refused. The member's watch of etcd
// delivers lists read before some of the adds, after their answers; such a
// list does not take an agent added here away again.
func TestAgentsAddedAtOnceAreKnownFromTheirAnswerOn(t *testing.T) {
	a := startMember(t, etcdtest.Start(t), "a", "")
	const n, workers = 24, 6
	var wg sync.WaitGroup
	refusals := make(chan string, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range workers {
		wg.Go(func() {
			for i := range next {
				name, conv := fmt.Sprintf("ag%02d", i), fmt.Sprintf("c%02d", i)
				if why := addAndStart(a, name, conv); why != "" {
					refusals <- why
				}
			}
		})
	}
	wg.Wait()
	close(refusals)
	for r := range refusals {
		t.Error(r)
	}
}

// addAndStart adds the agent name through m, starts its task in conv at
// once, and acts with its token; it says what was refused, or "".
func addAndStart(m *member, name, conv string) string {
	r, err := m.Do("POST", "/api/agents", m.Owner, messages.OwnerBody{Name: name})
	if why := refused("the add of "+name, r, err); why != "" {
		return why
	}
	token, _ := r.Map()["token"].(string)
	r, err = m.Do("POST", "/api/tasks", m.Owner, messages.OwnerBody{Agent: name, Conversation: conv,
		Description: "a task right after the add", Steps: 5, Minutes: 20})
	if why := refused("the task of "+name, r, err); why != "" {
		return why
	}
	r, err = m.Do("POST", "/api/tools/browser.act", token, map[string]any{"conversation": conv, "input": map[string]any{"action": "observe"}})
	if err == nil && r.Code() != messages.CodeUnauthorized {
		return ""
	}
	return refused("an act with the token of "+name, r, err)
}

// refused says what went wrong with a call, or "" when it succeeded.
func refused(what string, r *daemontest.Reply, err error) string {
	switch {
	case err != nil:
		return what + ": " + err.Error()
	case !r.OK:
		return what + ": " + string(r.Code())
	}
	return ""
}
