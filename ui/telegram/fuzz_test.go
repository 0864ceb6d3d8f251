package telegram

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// controls records the owner controls a bot makes; reads are answered.
type controls struct {
	mu   sync.Mutex
	made []any
}

func (c *controls) Owner(_ context.Context, msg any) *messages.OwnerReply {
	switch msg.(type) {
	case *messages.ListSessions:
		return &messages.OwnerReply{Result: messages.SessionList{{Conversation: "c1", Agent: "ada", State: messages.StatePaused}}}
	case *messages.GetTelegram, *messages.ListTasks, *messages.ListSiteRequests:
		return messages.OwnerFail(&messages.Error{Code: messages.CodeInternal, Message: "not here"})
	}
	c.mu.Lock()
	c.made = append(c.made, msg)
	c.mu.Unlock()
	return &messages.OwnerReply{Result: &messages.StopResult{}}
}

func (c *controls) Health(context.Context) (*messages.Health, *messages.Error) {
	return &messages.Health{Mode: "sim"}, nil
}

func (c *controls) Subscribe(f events.Filter) *events.Subscription { return events.New().Subscribe(f) }

type allPages struct{}

func (allPages) Listed(string) bool { return true }

// fuzzBot is a bot paired with chat 4242, bound to c1, with one card; it
// talks to no Bot API (nothing is started).
func fuzzBot(t testing.TB) (*Bot, *controls) {
	c := &controls{}
	b, err := New(Config{Token: "1:x", API: "http://127.0.0.1:1", Actors: c, Pages: allPages{},
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	b.setView(messages.TelegramView{Paired: true, User: 4242, Chat: 4242, Bound: []string{"c1"}})
	b.taskChanged(&messages.TaskView{Conversation: "c9", Agent: "ada", State: messages.TaskPending})
	return b, c
}

// Whatever bytes an update holds, handling it does not panic, and only the
// owner, in the owner's chat, makes the bot act.
func FuzzUpdate(f *testing.F) {
	f.Add([]byte(`{"update_id":1,"message":{"message_id":1,"date":1,"from":{"id":4242,"first_name":"A"},"chat":{"id":4242,"type":"private"},"text":"/browser stop"}}`))
	f.Add([]byte(`{"update_id":1,"message":{"message_id":1,"date":1,"from":{"id":9,"first_name":"M"},"chat":{"id":9,"type":"private"},"text":"/browser stop"}}`))
	f.Add([]byte(`{"update_id":1,"message":{"message_id":1,"date":1,"from":{"id":4242},"chat":{"id":-100,"type":"group"},"text":"/browser release"}}`))
	f.Add([]byte(`{"update_id":1,"callback_query":{"id":"q","from":{"id":4242},"data":"b1:000000000000:start","message":{"message_id":3,"date":1,"chat":{"id":4242,"type":"private"}}}}`))
	f.Add([]byte(`{"update_id":1,"message":{"text":"\u0007/browser"}}`))
	f.Add([]byte(`{"update_id":1,"message":"x"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, c := fuzzBot(t)
		off := 0
		b.update(raw, &off)
		c.mu.Lock()
		made := len(c.made)
		c.mu.Unlock()
		if made == 0 {
			return
		}
		var u struct {
			Message *struct {
				From *struct{ ID int64 } `json:"from"`
				Chat *struct{ ID int64 } `json:"chat"`
			} `json:"message"`
			Callback *struct {
				From    *struct{ ID int64 } `json:"from"`
				Message *struct {
					Chat *struct{ ID int64 } `json:"chat"`
				} `json:"message"`
			} `json:"callback_query"`
		}
		_ = json.Unmarshal(raw, &u)
		switch {
		case u.Message != nil && u.Message.From != nil && u.Message.From.ID == 4242 && u.Message.Chat != nil && u.Message.Chat.ID == 4242:
		case u.Callback != nil && u.Callback.From != nil && u.Callback.From.ID == 4242 &&
			u.Callback.Message != nil && u.Callback.Message.Chat != nil && u.Callback.Message.Chat.ID == 4242:
		default:
			t.Fatalf("%d controls made for an update that is not the owner's: %s", made, raw)
		}
	})
}

// A button's data decides something only when it is exactly the data of a
// button the bot made.
func FuzzButtonData(f *testing.F) {
	f.Add("b1:000000000000:start")
	f.Add("b1::")
	f.Add("b0:abc:once")
	f.Fuzz(func(t *testing.T, data string) {
		b, _ := fuzzBot(t)
		b.mu.Lock()
		var made []string
		for id := range b.cards.byID {
			made = append(made, "b1:"+id+":start", "b1:"+id+":reject")
		}
		b.mu.Unlock()
		if _, _, ok := b.decision(data); ok && !contains(made, data) {
			t.Fatalf("data %q decided something; the buttons were %s", data, strings.Join(made, " "))
		}
	})
}
