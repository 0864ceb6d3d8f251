package telegram

import (
	"context"
	"fmt"
	"strings"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

// help is what the owner reads for anything the bot does not know.
const help = "I know /browser (the state of the browser), /browser stop, /browser resume and /browser release. " +
	"To release or resume one conversation, send the command as a reply to one of its photos. " +
	"Take over is the button under each photo."

// handlers registers what the bot answers. Everything but /start is the
// owner's alone; telebot ignores the kinds of update nobody handles.
func (b *Bot) handlers() {
	b.tb.Handle("/start", b.onStart)
	b.tb.Handle("/browser", b.onBrowser, b.ownerOnly)
	b.tb.Handle(tele.OnText, func(tele.Context) error { b.reply(help); return nil }, b.ownerOnly)
	b.tb.Handle(tele.OnCallback, b.onCallback, b.ownerOnly)
}

// onBrowser is /browser with one word or none.
func (b *Bot) onBrowser(c tele.Context) error {
	words := strings.Fields(c.Message().Payload)
	if len(words) > 1 {
		b.reply(fmt.Sprintf("“/browser %s” is more than I know. %s", clipRunes(strings.Join(words, " "), 60), help))
		return nil
	}
	sub := ""
	if len(words) == 1 {
		sub = strings.ToLower(words[0])
	}
	switch sub {
	case "":
		b.reply(b.state())
	case "stop":
		b.reply(b.stop())
	case "resume":
		b.reply(b.resume(c.Message()))
	case "release":
		b.reply(b.release(c.Message()))
	default:
		b.reply(fmt.Sprintf("“/browser %s” is not a command I know. %s", clipRunes(words[0], 30), help))
	}
	return nil
}

// state is the panel's own state: the mode, whether access is stopped, and
// who drives each bound conversation's session.
func (b *Bot) state() string {
	ctx, cancel := context.WithTimeout(b.ctx, ownerWait)
	defer cancel()
	h, e := b.cfg.Actors.Health(ctx)
	if e != nil {
		return "buddi did not say its state: " + e.Message
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Mode: %s. ", h.Mode)
	if h.Stopped {
		sb.WriteString("Browser access is STOPPED; /browser resume lifts it.")
	} else {
		sb.WriteString("Browser access is on.")
	}
	list, e := b.sessions()
	if e != nil {
		return sb.String() + "\nThe sessions could not be read: " + e.Message
	}
	bound := b.boundList()
	shown := 0
	for _, s := range list {
		if !contains(bound, s.Conversation) {
			continue
		}
		shown++
		fmt.Fprintf(&sb, "\n%s (%s): %s; step %d of %d", s.Conversation, s.Agent, driving(s), s.StepsUsed, s.StepsMax)
		if s.URL != "" {
			sb.WriteString("; " + clipRunes(s.URL, 120))
		}
	}
	if shown == 0 {
		sb.WriteString("\nNo conversation bound to this chat has a session now.")
	}
	if other := len(list) - shown; other > 0 {
		fmt.Fprintf(&sb, "\n%d other sessions run (the dashboard shows them).", other)
	}
	return sb.String()
}

// driving says who drives a session.
func driving(s messages.SessionInfo) string {
	switch s.State {
	case messages.StateWorking:
		return "the agent is driving (acting now)"
	case messages.StatePaused:
		return "paused (" + s.PauseReason + "); /browser resume hands it back"
	case messages.StateTakenOver:
		return "taken over: you are driving"
	case messages.StateClosing:
		return "closing"
	case messages.StateStopped:
		return "stopped: its tabs are closed until /browser resume"
	}
	return "ready: the agent may act (it is not acting now)"
}

// stop is Stop all browsers.
func (b *Bot) stop() string {
	r := b.ask(&messages.StopAll{})
	if r.Error != nil {
		return r.Error.Message
	}
	n := 0
	if s, ok := r.Result.(*messages.StopResult); ok {
		n = s.Sessions
	}
	return messages.StoppedWords(n, "/browser resume")
}

// resume lifts a Stop, else hands the chat's paused or taken-over session
// back to its agent.
func (b *Bot) resume(m *tele.Message) string {
	ctx, cancel := context.WithTimeout(b.ctx, ownerWait)
	defer cancel()
	if h, e := b.cfg.Actors.Health(ctx); e == nil && h.Stopped {
		if r := b.ask(&messages.ResumeAll{}); r.Error != nil {
			return r.Error.Message
		}
		return messages.ResumedWords
	}
	conv, why := b.target(m, func(s messages.SessionInfo) bool {
		return s.State == messages.StatePaused || s.State == messages.StateTakenOver
	})
	if conv == "" {
		return why
	}
	if r := b.ask(&messages.Resume{Conversation: conv}); r.Error != nil {
		return r.Error.Message
	}
	return conv + " is handed back to its agent, which must observe again before acting."
}

// release ends the chat's session and closes its tabs.
func (b *Bot) release(m *tele.Message) string {
	conv, why := b.target(m, func(messages.SessionInfo) bool { return true })
	if conv == "" {
		return why
	}
	if r := b.ask(&messages.Release{Conversation: conv}); r.Error != nil {
		return r.Error.Message
	}
	return conv + " is released: its tabs are closed and its task has ended."
}

// target is the conversation a command acts on: the one whose photo the
// command replies to, else the one bound session that fits. why says what
// to do when there is none, or more than one.
func (b *Bot) target(m *tele.Message, fits func(messages.SessionInfo) bool) (conv, why string) {
	if m.ReplyTo != nil {
		b.mu.Lock()
		c, ok := b.photos.get(m.ReplyTo.ID)
		b.mu.Unlock()
		if ok {
			return c, ""
		}
	}
	list, e := b.sessions()
	if e != nil {
		return "", "The sessions could not be read: " + e.Message
	}
	bound := b.boundList()
	var found []string
	for _, s := range list {
		if contains(bound, s.Conversation) && fits(s) {
			found = append(found, s.Conversation)
		}
	}
	switch len(found) {
	case 1:
		return found[0], ""
	case 0:
		return "", "No session of a conversation bound to this chat fits; send /browser to see them."
	}
	return "", "Several conversations fit (" + strings.Join(found, ", ") + "); send the command as a reply to a photo of the one you mean."
}

func (b *Bot) sessions() (messages.SessionList, *messages.Error) {
	r := b.ask(&messages.ListSessions{})
	if r.Error != nil {
		return nil, r.Error
	}
	list, _ := r.Result.(messages.SessionList)
	return list, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
