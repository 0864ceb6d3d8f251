package telegram

import (
	"context"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// watch reads the pairing and the pending requests, then consumes the
// subscription (opened before, so nothing between is missed): pairing
// changes, steps, task requests and site requests. When the queue dropped
// events, it reads the pairing and the pending requests again.
func (b *Bot) watch(ctx context.Context, sub *events.Subscription) {
	defer sub.Close()
	b.resync()
	var dropped uint64
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			return
		}
		if d := sub.Dropped(); d != dropped {
			dropped = d
			b.resync()
		}
		b.event(ev)
	}
}

func (b *Bot) event(ev messages.Event) {
	switch e := ev.(type) {
	case *messages.TelegramChanged:
		b.setView(e.View)
		if e.View.Paired {
			b.resyncCards() // requests that waited for a chat to be paired
		}
	case *messages.StepTaken:
		b.step(e)
	case *messages.TaskChanged:
		b.taskChanged(&e.Task)
	case *messages.ApprovalRequested:
		b.siteAsked(&e.Request)
	}
}

// resync reads the pairing and the pending requests from the actors.
func (b *Bot) resync() {
	if r := b.ask(&messages.GetTelegram{}); r.Error == nil {
		if v, ok := r.Result.(*messages.TelegramView); ok {
			b.setView(*v)
		}
	}
	b.resyncCards()
}

// resyncCards posts a card for each pending request that has none.
func (b *Bot) resyncCards() {
	if _, paired := b.chat(); !paired {
		return
	}
	if r := b.ask(&messages.ListTasks{}); r.Error == nil {
		if list, ok := r.Result.(messages.TaskList); ok {
			for i := range list {
				b.taskChanged(&list[i])
			}
		}
	}
	if r := b.ask(&messages.ListSiteRequests{}); r.Error == nil {
		if list, ok := r.Result.(messages.SiteRequests); ok {
			for i := range list {
				b.siteAsked(&list[i])
			}
		}
	}
}
