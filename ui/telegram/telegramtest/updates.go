package telegramtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// User is a Telegram account the test speaks as.
type User struct {
	ID   int64
	Name string
}

func (u User) json() map[string]any {
	return map[string]any{"id": u.ID, "is_bot": false, "first_name": u.Name, "username": strings.ToLower(u.Name)}
}

// Push queues raw updates (each a JSON object without its update_id, which
// the fake adds) for the bot's next getUpdates; it returns the last id.
func (s *Server) Push(updates ...map[string]any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range updates {
		u["update_id"] = s.nextID
		s.nextID++
		b, _ := json.Marshal(u)
		s.updates = append(s.updates, b)
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return s.nextID - 1
}

// PushRaw queues an update given as raw JSON (garbage included), with the
// next update id in place of its %d.
func (s *Server) PushRaw(format string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates = append(s.updates, json.RawMessage(fmt.Sprintf(format, s.nextID)))
	s.nextID++
	close(s.changed)
	s.changed = make(chan struct{})
}

// Text is a message from u in their private chat with the bot.
func Text(u User, text string) map[string]any {
	return map[string]any{"message": message(u, u.ID, "private", text, 0)}
}

// Reply is a message from u answering the message with id to.
func Reply(u User, text string, to int) map[string]any {
	return map[string]any{"message": message(u, u.ID, "private", text, to)}
}

// InGroup is a message from u in a group chat.
func InGroup(u User, group int64, text string) map[string]any {
	return map[string]any{"message": message(u, group, "group", text, 0)}
}

// Anonymous is a message with no sender (as in a channel).
func Anonymous(chat int64, text string) map[string]any {
	m := message(User{}, chat, "channel", text, 0)
	delete(m, "from")
	return map[string]any{"message": m}
}

// Press is u pressing a button with data under the message with id msg.
func Press(u User, id string, msg int, data string) map[string]any {
	return map[string]any{"callback_query": map[string]any{"id": id, "from": u.json(),
		"chat_instance": "ci", "data": data,
		"message": message(User{ID: 123456, Name: "buddi"}, u.ID, "private", "card", msg)}}
}

func message(u User, chat int64, kind, text string, replyTo int) map[string]any {
	m := map[string]any{"message_id": 1, "date": time.Now().Unix(), "from": u.json(),
		"chat": map[string]any{"id": chat, "type": kind}, "text": text}
	if strings.HasPrefix(text, "/") {
		end := strings.IndexByte(text, ' ')
		if end < 0 {
			end = len(text)
		}
		m["entities"] = []map[string]any{{"type": "bot_command", "offset": 0, "length": end}}
	}
	if replyTo != 0 {
		m["reply_to_message"] = map[string]any{"message_id": replyTo, "date": time.Now().Unix(),
			"chat": map[string]any{"id": chat, "type": kind}}
	}
	return m
}
