// Package tasks is the controller's book of tasks and their state machine:
// pending (an agent asked), active (the owner gave it), refused, ended. Each
// transition returns the new record, a value the controller stores and the
// book keeps; the book never hands out a record it may change later. It
// holds no lock; the controller actor is its only user.
package tasks

import (
	"fmt"
	"sort"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// Book holds every task the controller knows, by conversation.
type Book struct {
	tasks map[string]ledger.Task
	now   func() time.Time
}

// Bounds of the book: what agents' requests may hold, and how much history
// it keeps.
const (
	// MaxPending is how many requests one agent may have waiting.
	MaxPending = 8
	// PendingLife is how long a request waits for the owner before it lapses.
	PendingLife = 10 * time.Minute
	// MaxFinished is how many ended and refused tasks are kept; older ones
	// are dropped, and their conversations are free again.
	MaxFinished = 200
)

// New returns a book of the tasks the ledger holds. idOf gives the ID of an
// agent by name, for tasks stored before tasks carried agent IDs ("" when
// no such agent exists: the task then belongs to no agent).
func New(stored []ledger.Task, idOf func(name string) string, now func() time.Time) *Book {
	b := &Book{tasks: map[string]ledger.Task{}, now: now}
	for _, t := range stored {
		if t.AgentID == "" {
			t.AgentID = idOf(t.Agent)
		}
		b.tasks[t.Conversation] = t
	}
	return b
}

// Get returns conv's task.
func (b *Book) Get(conv string) (ledger.Task, bool) {
	t, ok := b.tasks[conv]
	return t, ok
}

// Move files conv's task under its new id (the conversation moved) and
// returns it as filed.
func (b *Book) Move(from, to string) ledger.Task {
	t := b.tasks[from]
	delete(b.tasks, from)
	t.Conversation = to
	b.tasks[to] = t
	return t
}

// Put records t as its conversation's task.
func (b *Book) Put(t ledger.Task) { b.tasks[t.Conversation] = t }

// All lists every task (for restarting their sessions).
func (b *Book) All() []ledger.Task {
	out := make([]ledger.Task, 0, len(b.tasks))
	for _, t := range b.tasks {
		out = append(out, t)
	}
	return out
}

// Pending makes a task of ag waiting for the owner; steps and life of zero
// take the defaults.
func (b *Book) Pending(ag ledger.Agent, conv, desc string, steps int, life time.Duration) ledger.Task {
	if steps == 0 {
		steps = messages.DefaultSteps
	}
	if life == 0 {
		life = messages.DefaultLifetime
	}
	return ledger.Task{Conversation: conv, Agent: ag.Name, AgentID: ag.ID, Description: desc,
		State: ledger.TaskPending, MaxSteps: steps, Lifetime: life, Created: b.now()}
}

// PendingOf counts the requests of agent id that wait for the owner.
func (b *Book) PendingOf(id string) int {
	n := 0
	for _, t := range b.tasks {
		if t.AgentID == id && t.State == ledger.TaskPending {
			n++
		}
	}
	return n
}

// Of lists the tasks of agent id that are still open: waiting or running.
func (b *Book) Of(id string) []ledger.Task {
	var out []ledger.Task
	for _, t := range b.tasks {
		if t.AgentID == id && (t.State == ledger.TaskPending || t.State == ledger.TaskActive) {
			out = append(out, t)
		}
	}
	return out
}

// Lapse ends the requests that waited longer than PendingLife and returns
// them, changed, for the caller to store.
func (b *Book) Lapse() []ledger.Task {
	var out []ledger.Task
	for conv, t := range b.tasks {
		if t.State == ledger.TaskPending && !b.now().Before(t.Created.Add(PendingLife)) {
			t = End(t, fmt.Sprintf("The request lapsed: the owner did not answer within %s.", PendingLife), b.now())
			b.tasks[conv] = t
			out = append(out, t)
		}
	}
	return out
}

// Prune drops the finished (ended and refused) tasks that ended before
// before, whose conversations it returns as expired, for the caller to
// delete, and the oldest other finished ones past MaxFinished, returned as
// overflow: the book forgets them, but they are within the retention, so
// the store keeps them.
func (b *Book) Prune(before time.Time) (expired, overflow []string) {
	var done []ledger.Task
	for conv, t := range b.tasks {
		if t.State != ledger.TaskEnded && t.State != ledger.TaskRefused {
			continue
		}
		if !t.Ended.IsZero() && t.Ended.Before(before) {
			delete(b.tasks, conv)
			expired = append(expired, conv)
			continue
		}
		done = append(done, t)
	}
	sort.Strings(expired)
	if len(done) <= MaxFinished {
		return expired, nil
	}
	sort.Slice(done, func(i, j int) bool { return done[i].Created.Before(done[j].Created) })
	for _, t := range done[:len(done)-MaxFinished] {
		delete(b.tasks, t.Conversation)
		overflow = append(overflow, t.Conversation)
	}
	return expired, overflow
}

// Activate starts t now.
func (b *Book) Activate(t ledger.Task) ledger.Task {
	t.State = ledger.TaskActive
	t.Started = b.now()
	t.Expires = t.Started.Add(t.Lifetime)
	t.EndReason, t.Ended = "", time.Time{}
	return t
}

// End ends t at the time at with a sentence that says why.
func End(t ledger.Task, reason string, at time.Time) ledger.Task {
	t.State, t.EndReason, t.Ended = ledger.TaskEnded, reason, at
	return t
}

// Refuse is the owner's no to a pending task.
func (b *Book) Refuse(conv string) (ledger.Task, *messages.Error) {
	t, ok := b.tasks[conv]
	if !ok || t.State != ledger.TaskPending {
		return t, NoPending(conv)
	}
	t.State, t.Ended = ledger.TaskRefused, b.now()
	return t, nil
}

// Decidable returns conv's task if it waits for the owner's decision.
func (b *Book) Decidable(conv string) (ledger.Task, *messages.Error) {
	t, ok := b.tasks[conv]
	if !ok || t.State != ledger.TaskPending {
		return t, NoPending(conv)
	}
	return t, nil
}

// NoPending is the refusal of a decision with nothing to decide.
func NoPending(conv string) *messages.Error {
	return messages.Errorf(messages.CodeNoPendingTask, "Conversation %s has no task waiting for a decision.", conv)
}

// Claimed reports whether conv has an open task (waiting or running) of an
// agent other than the one with ID id. A finished task does not keep its
// conversation: another agent may ask for a task there.
func (b *Book) Claimed(conv, id string) bool {
	t, ok := b.tasks[conv]
	return ok && t.AgentID != id && (t.State == ledger.TaskPending || t.State == ledger.TaskActive)
}

// OtherAgent reports whether conv's task belongs to an agent other than
// the one with ID id (a task of an agent since removed belongs to no one).
func (b *Book) OtherAgent(conv, id string) bool {
	t, ok := b.tasks[conv]
	return ok && t.AgentID != id
}

// List is every task as the owner sees it, oldest first.
func (b *Book) List() messages.TaskList {
	out := make(messages.TaskList, 0, len(b.tasks))
	for _, t := range b.tasks {
		out = append(out, View(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// View is a task as the owner and its agent see it.
func View(t ledger.Task) messages.TaskView {
	return messages.TaskView{Conversation: t.Conversation, Agent: t.Agent, Description: t.Description,
		State: t.State, MaxSteps: t.MaxSteps, Lifetime: t.Lifetime, Created: t.Created,
		Started: t.Started, Expires: t.Expires, EndReason: t.EndReason}
}

// Changed is the event of a task's new state.
func Changed(t ledger.Task, at time.Time) *messages.TaskChanged {
	return &messages.TaskChanged{Task: View(t), At: at}
}

// NoTask is the refusal of an act in a conversation without a running task.
func (b *Book) NoTask(conv string) *messages.Error {
	t, ok := b.tasks[conv]
	switch {
	case !ok:
		return messages.Errorf(messages.CodeNoTask, "There is no task for conversation %s; ask the owner for one with browser.task and wait for it.", conv)
	case t.State == ledger.TaskPending:
		return &messages.Error{Code: messages.CodeTaskPending, Message: "Your task request is waiting for the owner; wait until it is accepted."}
	case t.State == ledger.TaskRefused:
		return &messages.Error{Code: messages.CodeTaskRefused, Message: "The owner refused this task; do not ask again for the same thing."}
	case t.EndReason != "":
		return &messages.Error{Code: messages.CodeNoTask, Message: t.EndReason + " Ask the owner for a new task."}
	}
	return &messages.Error{Code: messages.CodeNoTask, Message: "This conversation's task has ended; ask the owner for a new task."}
}

// Started is the agent's answer to a task that started at once.
func Started(t ledger.Task) *messages.TaskAnswer {
	v := View(t)
	return &messages.TaskAnswer{State: ledger.TaskActive, Task: &v,
		Text: fmt.Sprintf("Task started: %d steps within %s.", t.MaxSteps, t.Lifetime)}
}

// Asked is the agent's answer to a task request that waits for the owner.
func Asked() *messages.TaskAnswer {
	return &messages.TaskAnswer{State: ledger.TaskPending,
		Text: "Asked the owner for this task; wait until it is accepted, then call browser.status."}
}
