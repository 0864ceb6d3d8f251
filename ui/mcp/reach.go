package mcp

import (
	"context"
	"encoding/json"

	"github.com/buddi-dev/buddi/messages"
)

// AskReach asks the daemon cfg names, through browser.status, what the
// install lets the browser open, so browser_act's description says it from
// the moment the tool is registered (set it as cfg.Reach). It returns nil
// when the daemon does not answer: the dispatch-time refusals remain.
func AskReach(ctx context.Context, cfg Config) *messages.Reach {
	s, err := New(cfg)
	if err != nil {
		return nil
	}
	conv := cfg.Conversation
	if conv == "" {
		conv = newConversation()
	}
	raw, err := s.calls.Call(ctx, cfg.Token, messages.ToolStatus, conv, json.RawMessage(`{}`))
	if c, ok := s.calls.(interface{ closeIdle() }); ok {
		c.closeIdle()
	}
	if err != nil {
		return nil
	}
	var st struct {
		Reach *messages.Reach `json:"reach"`
	}
	if json.Unmarshal(raw, &st) != nil {
		return nil
	}
	return st.Reach
}
