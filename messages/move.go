package messages

import "time"

// MoveSession moves a conversation's session to a new conversation id (a
// long conversation rolled over to a new transcript): its agent, task,
// steps used, expiry and pause go with it and its tabs stay open. The
// owner sends it; an agent asks with browser.task's moveTo.
type MoveSession struct {
	Conversation string `json:"conversation"`
	To           string `json:"to"`
}

// MaxCarried is how many short lines of context a move hands the new
// transcript beside the task's text: never old tool calls or trees.
const MaxCarried = 6

// MaxCarriedLine bounds one carried line, in characters.
const MaxCarriedLine = 160

// Moved answers a move: where the session is now, the task's text and at
// most MaxCarried short lines for the new transcript to start from.
type Moved struct {
	From    string   `json:"from"`
	To      string   `json:"to"`
	Task    string   `json:"task"`
	Carried []string `json:"carried"`
	Text    string   `json:"text"`
}

func (*Moved) answer() {}

// CheckMove validates a move before any state is looked at.
func CheckMove(from, to string) *Error {
	if e := CheckConversation(from); e != nil {
		return e
	}
	if to == "" {
		return &Error{Code: CodeBadInput, Message: "Name the new conversation id to move to: {\"to\": \"…\"}."}
	}
	if e := CheckConversation(to); e != nil {
		return e
	}
	if to == from {
		return Errorf(CodeBadInput, "Conversation %s is already called %s; name a new id to move to.", from, to)
	}
	return nil
}

// MovedAway is the refusal of a call on a conversation that moved to to.
func MovedAway(from, to string) *Error { return CodeMoved.Err(from, to) }

// Move is the body as a move of a session to a new conversation id.
func (b *OwnerBody) Move() (any, *Error) {
	if e := b.needConversation(); e != nil {
		return nil, e
	}
	return &MoveSession{Conversation: b.Conversation, To: b.To}, nil
}

// ConversationMoved says a session now answers to To instead of From, once
// the ledger has the move: a view of From follows it to To.
type ConversationMoved struct {
	From  string
	To    string
	Agent string
	At    time.Time
}

// Kind is KindMoved.
func (*ConversationMoved) Kind() EventKind { return KindMoved }

// Key is the old id: it moves once.
func (e *ConversationMoved) Key() EventKey { return EventKey{Kind: KindMoved, Name: e.From} }

// About is the old id: who watched it is who must follow.
func (e *ConversationMoved) About() string { return e.From }
