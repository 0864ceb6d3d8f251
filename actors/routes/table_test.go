package routes_test

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/messages"
)

func TestDirectOnlyWhenTheControllerWouldPassTheCallOn(t *testing.T) {
	table := routes.New()
	pid := actor.NewPID("local", "s-c1")
	table.PutAgent("h-ada", routes.Agent{ID: "ag_1", Name: "ada", Grants: []string{"browser.*"}})
	table.PutAgent("h-bob", routes.Agent{ID: "ag_2", Name: "bob", Grants: []string{"browser.status"}})
	// A later agent of the same name is another agent: its own ID.
	table.PutAgent("h-ada2", routes.Agent{ID: "ag_3", Name: "ada", Grants: []string{"browser.*"}})
	table.PutSession("c1", &routes.Session{PID: pid, Agent: "ada", AgentID: "ag_1"})
	observe := &messages.ActInput{Action: "observe"}
	call := func(hash, tool, conv string, in *messages.ActInput) *messages.ToolCall {
		return &messages.ToolCall{TokenHash: hash, Tool: tool, Conversation: conv, Act: in}
	}
	cases := map[string]struct {
		call   *messages.ToolCall
		direct bool
	}{
		"the agent's own session":  {call("h-ada", messages.ToolAct, "c1", observe), true},
		"status of its session":    {call("h-ada", messages.ToolStatus, "c1", nil), true},
		"an unknown token":         {call("h-eve", messages.ToolAct, "c1", observe), false},
		"another agent's session":  {call("h-bob", messages.ToolStatus, "c1", nil), false},
		"a namesake's session":     {call("h-ada2", messages.ToolAct, "c1", observe), false},
		"a tool without the grant": {call("h-bob", messages.ToolAct, "c1", observe), false},
		"no session":               {call("h-ada", messages.ToolAct, "c2", observe), false},
		"a task request":           {call("h-ada", messages.ToolTask, "c1", nil), false},
		"a page link":              {call("h-ada", messages.ToolAct, "c1", &messages.ActInput{Action: "navigate", URL: "https://a.example/", URLSource: messages.URLFromPage}), false},
		"a page link in a script": {call("h-ada", messages.ToolAct, "c1", &messages.ActInput{Action: "script", Steps: []*messages.ActInput{
			{Action: "navigate", URL: "https://a.example/", URLSource: messages.URLFromPage}}}), false},
		"the agent's own navigate": {call("h-ada", messages.ToolAct, "c1", &messages.ActInput{Action: "navigate", URL: "https://a.example/"}), true},
	}
	for name, c := range cases {
		got, agent, ok := table.Direct(c.call)
		if ok != c.direct || ok && (!got.Equal(pid) || agent != "ada") {
			t.Errorf("%s: direct %v (%v, %q), want %v", name, ok, got, agent, c.direct)
		}
	}
	table.SetAskSites(true)
	if _, _, ok := table.Direct(call("h-ada", messages.ToolAct, "c1", &messages.ActInput{Action: "navigate", URL: "https://a.example/"})); ok {
		t.Error("with site approval on, a navigate went around the controller")
	}
	table.SetStopped(true)
	if _, _, ok := table.Direct(call("h-ada", messages.ToolAct, "c1", observe)); ok {
		t.Error("a call went around the controller while all access is stopped")
	}
	table.SetStopped(false)
	table.RemoveAgent("h-ada")
	if _, _, ok := table.Direct(call("h-ada", messages.ToolAct, "c1", observe)); ok {
		t.Error("a removed agent's token still reaches its session")
	}
}

func TestSessionsListsWhatEachSessionShowed(t *testing.T) {
	table := routes.New()
	for _, conv := range []string{"b", "a"} {
		s := &routes.Session{Agent: "ada"}
		s.Show(messages.SessionInfo{Conversation: conv, State: messages.StateReady})
		table.PutSession(conv, s)
	}
	table.DropSession("b")
	list := table.Sessions()
	if len(list) != 1 || list[0].Conversation != "a" || list[0].State != messages.StateReady {
		t.Fatalf("sessions = %+v", list)
	}
}

func TestAStateShownSharedIsTheLatest(t *testing.T) {
	s := &routes.Session{Agent: "ada"}
	s.Show(messages.SessionInfo{Conversation: "a", State: messages.StateReady})
	s.ShowShared(&messages.SessionInfo{Conversation: "a", State: messages.StateWorking, StepsUsed: 3})
	if got := s.Shown(); got.State != messages.StateWorking || got.StepsUsed != 3 {
		t.Fatalf("shown = %+v, want the shared state", got)
	}
}
