package journal

import (
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// BenchmarkStepsOfMoreLiveConversationsThanKept is the journal's work per
// step when more sessions are live than it keeps (1,000 against
// MaxConversations), as in the load test: nearly every step is of a
// conversation it forgot and makes room for it again.
func BenchmarkStepsOfMoreLiveConversationsThanKept(b *testing.B) {
	j := Start(events.New())
	defer j.Close()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprint("c", i)
	}
	at := time.Unix(1, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		at = at.Add(time.Millisecond)
		id := ids[(i*7)%len(ids)]
		j.mu.Lock()
		j.apply(&messages.SessionChanged{Session: messages.SessionInfo{Conversation: id}, At: at})
		j.apply(&messages.StepTaken{Conversation: id, Action: "observe", At: at})
		j.mu.Unlock()
	}
}
