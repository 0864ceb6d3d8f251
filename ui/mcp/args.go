package mcp

import "github.com/buddi-dev/buddi/messages"

// args is an MCP-side tool input: the daemon's input plus an optional
// conversation, which is stripped before forwarding.
type args interface {
	conversation() string
	input() any
	check() *messages.Error // what buddi would refuse in the input, found before it is sent
}

type statusArgs struct {
	Conversation string `json:"conversation,omitempty" jsonschema:"optional conversation id: calls naming the same id share one browser session and task; by default the one your MCP configuration names, else one per MCP session"`
}

type actArgs struct {
	messages.ActInput
	Conversation string `json:"conversation,omitempty" jsonschema:"optional conversation id: calls naming the same id share one browser session and task; by default the one your MCP configuration names, else one per MCP session"`
}

type taskArgs struct {
	messages.TaskInput
	Conversation string `json:"conversation,omitempty" jsonschema:"optional conversation id: calls naming the same id share one browser session and task; by default the one your MCP configuration names, else one per MCP session"`
}

func (a statusArgs) conversation() string { return a.Conversation }
func (a statusArgs) input() any           { return struct{}{} }
func (a actArgs) conversation() string    { return a.Conversation }
func (a actArgs) input() any              { return &a.ActInput }
func (a taskArgs) conversation() string   { return a.Conversation }
func (a taskArgs) input() any             { return &a.TaskInput }

func (a statusArgs) check() *messages.Error { return nil }
func (a actArgs) check() *messages.Error    { return messages.ValidateAct(&a.ActInput, false) }
func (a taskArgs) check() *messages.Error   { return a.Check() }
