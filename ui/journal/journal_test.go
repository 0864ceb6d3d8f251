package journal_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/journal"
)

var markers int

// settle publishes evs and waits until the journal took them all in: a
// marker published last is in.
func settle(t *testing.T, b *events.Bus, j *journal.Journal, evs ...messages.Event) {
	t.Helper()
	for _, ev := range evs {
		b.Publish(ev)
	}
	markers++
	marker := fmt.Sprint("marker", markers)
	b.Publish(&messages.TaskChanged{Task: messages.TaskView{Conversation: marker}})
	deadline := time.After(10 * time.Second)
	for {
		if _, ok := j.Timeline(marker); ok {
			return
		}
		select {
		case <-j.Updated():
		case <-deadline:
			t.Fatal("the journal did not take the events in")
		}
	}
}

func TestTheJournalKeepsStepsRequestsAndTheLastSnapshotAfterTheSessionEnds(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	info := messages.SessionInfo{Conversation: "c1", Agent: "ada", State: messages.StateReady}
	settle(t, b, j,
		&messages.SessionChanged{Session: info, At: at},
		&messages.StepTaken{Conversation: "c1", Agent: "ada", Action: "navigate", Outcome: "loaded", URL: "https://a.example/", At: at},
		&messages.ApprovalRequested{Request: messages.SiteRequest{Conversation: "c1", Agent: "ada", Site: "b.example", At: at}},
		&messages.SnapshotTaken{Snapshot: messages.Snapshot{Conversation: "c1", JPEG: []byte{1}, At: at}},
	)
	if b.Watched(messages.KindSnapshot) {
		t.Fatal("the journal's own subscription asks for snapshots")
	}
	settle(t, b, j,
		&messages.ApprovalRequested{Request: messages.SiteRequest{Conversation: "c1", Site: "b.example", At: at}, Decision: messages.DecideOnce},
		&messages.SessionChanged{Session: info, Ended: true, At: at.Add(time.Second)},
	)
	tl, ok := j.Timeline("c1")
	if !ok || tl.Agent != "ada" || tl.Live {
		t.Fatalf("timeline %+v, want ada's, ended", tl)
	}
	if len(tl.Entries) != 2 || tl.Entries[0].Action != "navigate" || tl.Entries[1].Decision != messages.DecideOnce {
		t.Fatalf("entries %+v, want the step and the answered request", tl.Entries)
	}
	if tl.Snapshot == nil || len(tl.Snapshot.JPEG) != 1 {
		t.Fatal("the last snapshot is gone after the session ended")
	}
}

func TestTheJournalIsBounded(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	var evs []messages.Event
	for i := range journal.MaxEntries + 10 {
		evs = append(evs, &messages.StepTaken{Conversation: "long", Action: fmt.Sprint("a", i), At: time.Unix(int64(i), 0)})
	}
	for i := range journal.MaxConversations + 5 {
		evs = append(evs, &messages.StepTaken{Conversation: fmt.Sprint("c", i), At: time.Unix(int64(10000+i), 0)})
	}
	settle(t, b, j, evs...)
	if n := len(j.Conversations()); n > journal.MaxConversations {
		t.Fatalf("%d conversations kept, want at most %d", n, journal.MaxConversations)
	}
	if _, ok := j.Timeline("long"); ok {
		t.Fatal("the least recently active conversation was kept over newer ones")
	}
	tl, _ := j.Timeline(fmt.Sprint("c", journal.MaxConversations+4))
	if tl == nil || len(tl.Entries) != 1 {
		t.Fatal("the newest conversation is missing")
	}
}

// However many sessions are live, the journal keeps at most
// MaxConversations of them (the least recently active go first), and a
// conversation's timeline is its newest MaxEntries steps, in order.
func TestTheJournalStaysBoundedWithEveryConversationLive(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	var evs []messages.Event
	for i := range journal.MaxConversations + 50 {
		conv := fmt.Sprint("live", i)
		evs = append(evs, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv, Agent: "ada"}, At: time.Unix(int64(i), 0)})
	}
	evs = append(evs, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: "busy", Agent: "ada"}, At: time.Unix(999, 0)})
	const steps = 3*journal.MaxEntries + 7
	for i := range steps {
		evs = append(evs, &messages.StepTaken{Conversation: "busy", Action: fmt.Sprint("a", i), At: time.Unix(int64(1000+i), 0)})
	}
	settle(t, b, j, evs...)
	if n := len(j.Conversations()); n > journal.MaxConversations {
		t.Fatalf("%d conversations kept while all were live, want at most %d", n, journal.MaxConversations)
	}
	if _, ok := j.Timeline("live0"); ok {
		t.Fatal("the least recently active live conversation was kept over newer ones")
	}
	tl, ok := j.Timeline("busy")
	if !ok {
		t.Fatal("the most recently active conversation is gone")
	}
	if len(tl.Entries) != journal.MaxEntries {
		t.Fatalf("the busy conversation kept %d entries, want %d", len(tl.Entries), journal.MaxEntries)
	}
	for i, e := range tl.Entries {
		if want := fmt.Sprint("a", steps-journal.MaxEntries+i); e.Action != want {
			t.Fatalf("entry %d is %s, want %s: the newest, oldest first", i, e.Action, want)
		}
	}
}

func TestAMovedConversationsHistoryFollowsItToTheNewId(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	settle(t, b, j,
		&messages.SessionChanged{Session: messages.SessionInfo{Conversation: "c1", Agent: "ada"}, At: at},
		&messages.StepTaken{Conversation: "c1", Agent: "ada", Action: "navigate", At: at},
		&messages.SessionChanged{Session: messages.SessionInfo{Conversation: "c1", Agent: "ada"}, Ended: true, At: at.Add(time.Second)},
		&messages.SessionChanged{Session: messages.SessionInfo{Conversation: "c2", Agent: "ada"}, At: at.Add(time.Second)},
		&messages.StepTaken{Conversation: "c2", Agent: "ada", Action: "observe", At: at.Add(2 * time.Second)},
		&messages.ConversationMoved{From: "c1", To: "c2", Agent: "ada", At: at.Add(time.Second)},
	)
	if old, _ := j.Timeline("c1"); old == nil || old.MovedTo != "c2" || len(old.Entries) != 0 {
		t.Fatalf("the old id's timeline after the move is %+v, want none of its own, pointing at c2", old)
	}
	tl, ok := j.Timeline("c2")
	if !ok || !tl.Live || tl.Agent != "ada" {
		t.Fatalf("c2's timeline %+v, want ada's, live", tl)
	}
	if len(tl.Entries) != 2 || tl.Entries[0].Action != "navigate" || tl.Entries[1].Action != "observe" {
		t.Fatalf("c2's entries %+v, want c1's navigate, then c2's observe", tl.Entries)
	}
}

func TestAnOldIdAfterMovesPointsAtTheNewestId(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	settle(t, b, j,
		&messages.StepTaken{Conversation: "c1", Agent: "ada", Action: "navigate", At: at},
		&messages.ConversationMoved{From: "c1", To: "c2", Agent: "ada", At: at.Add(time.Second)},
		&messages.ConversationMoved{From: "c2", To: "c3", Agent: "ada", At: at.Add(2 * time.Second)},
	)
	for _, old := range []string{"c1", "c2"} {
		tl, ok := j.Timeline(old)
		if !ok || tl.MovedTo != "c3" || len(tl.Entries) != 0 {
			t.Fatalf("%s's timeline %+v (found %v), want none of its own, moved to c3", old, tl, ok)
		}
	}
	if tl, ok := j.Timeline("c3"); !ok || tl.MovedTo != "" || len(tl.Entries) != 1 {
		t.Fatalf("c3's timeline %+v (found %v), want c1's navigate and no move", tl, ok)
	}
	if _, ok := j.Timeline("c9"); ok {
		t.Fatal("an id that never was has a timeline")
	}
}

func TestATaskStateSaidAgainIsOneEntry(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	task := func(conv, state string, s int) *messages.TaskChanged {
		return &messages.TaskChanged{Task: messages.TaskView{Conversation: conv, Agent: "ada", State: state,
			Description: "find the docs"}, At: at.Add(time.Duration(s) * time.Second)}
	}
	// One at a time: the bus keeps only the latest of a task's changes for
	// a subscriber that has not read them yet.
	for _, ev := range []messages.Event{task("c1", "active", 0),
		&messages.ConversationMoved{From: "c1", To: "c2", Agent: "ada", At: at.Add(time.Second)},
		task("c2", "active", 2), task("c2", "paused", 3), task("c2", "active", 4)} {
		settle(t, b, j, ev)
	}
	tl, _ := j.Timeline("c2")
	var states []string
	for _, e := range tl.Entries {
		states = append(states, e.State)
	}
	if got := strings.Join(states, ","); got != "active,paused,active" {
		t.Fatalf("c2's task entries %s, want active,paused,active: the task moved shows once", got)
	}
}

// Evictions forget ended conversations before live ones, however recent,
// and do so round after round (their list is kept between them): after
// many more arrivals than the journal keeps, every live conversation that
// was kept from the start is still there.
func TestEvictionsForgetEndedConversationsFirst(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	var evs []messages.Event
	const live = 20
	for i := range live {
		evs = append(evs, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: fmt.Sprint("live", i), Agent: "ada"}, At: time.Unix(int64(i), 0)})
	}
	for i := range 3 * journal.MaxConversations {
		conv := fmt.Sprint("ended", i)
		at := time.Unix(int64(1000+i), 0)
		evs = append(evs, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv, Agent: "ada"}, At: at},
			&messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv, Agent: "ada"}, Ended: true, At: at})
	}
	settle(t, b, j, evs...)
	if n := len(j.Conversations()); n > journal.MaxConversations {
		t.Fatalf("%d conversations kept, want at most %d", n, journal.MaxConversations)
	}
	for i := range live {
		if tl, ok := j.Timeline(fmt.Sprint("live", i)); !ok || !tl.Live {
			t.Fatalf("live%d was forgotten while ended conversations were kept", i)
		}
	}
	if _, ok := j.Timeline(fmt.Sprint("ended", 3*journal.MaxConversations-1)); !ok {
		t.Fatal("the newest ended conversation was forgotten")
	}
}

// A conversation heard from again is kept over those quiet since: with the
// journal full of live conversations, a new one takes the place of the
// one heard from longest ago, not of the one that started first.
func TestAConversationHeardFromAgainIsKeptOverQuieterOnes(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	var evs []messages.Event
	for i := range journal.MaxConversations {
		evs = append(evs, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: fmt.Sprint("q", i), Agent: "ada"}, At: time.Unix(int64(i+1), 0)})
	}
	evs = append(evs,
		&messages.StepTaken{Conversation: "q0", Action: "observe", At: time.Unix(10000, 0)},
		&messages.SessionChanged{Session: messages.SessionInfo{Conversation: "new", Agent: "ada"}, At: time.Unix(10001, 0)})
	settle(t, b, j, evs...)
	if tl, ok := j.Timeline("q0"); !ok || len(tl.Entries) != 1 {
		t.Fatal("q0, the oldest but heard from again after the others, was forgotten")
	}
	if _, ok := j.Timeline("q1"); ok {
		t.Fatal("q1, heard from longest ago, was kept over a newer conversation")
	}
	if _, ok := j.Timeline("new"); !ok {
		t.Fatal("the newest conversation is missing")
	}
	if n := len(j.Conversations()); n != journal.MaxConversations {
		t.Fatalf("%d conversations kept, want %d: one forgotten for each new one", n, journal.MaxConversations)
	}
}

// With more conversations live than are kept, each step of one not kept
// evicts another, and the arrival takes the evicted one's place: it shows
// only what was said of it, never the evicted one's steps, agent or
// snapshot.
func TestAConversationKeptInAnEvictedOnesPlaceShowsOnlyItsOwnHistory(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	const convs = 2 * journal.MaxConversations
	at := int64(0)
	next := func() time.Time { at++; return time.Unix(at, 0) }
	var evs []messages.Event
	// step is what a session says of an act: it is live, and took a step.
	// Only the first round names the agent.
	step := func(conv, agent, action string) {
		evs = append(evs,
			&messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv, Agent: agent}, At: next()},
			&messages.StepTaken{Conversation: conv, Action: action, At: next()})
	}
	for round := range 3 {
		for i := range convs {
			conv, agent := fmt.Sprint("c", i), ""
			if round == 0 {
				agent = fmt.Sprint("agent", i)
				evs = append(evs, &messages.SnapshotTaken{Snapshot: messages.Snapshot{Conversation: conv, JPEG: []byte{byte(i)}, At: next()}})
			}
			step(conv, agent, fmt.Sprint(conv, "/", round))
		}
		// A round at a time: the bus coalesces a session's changes
		// still waiting, which would reorder the rounds.
		settle(t, b, j, evs...)
		evs = evs[:0]
	}
	step("quiet", "", "quiet/0")
	settle(t, b, j, evs...)

	if n := len(j.Conversations()); n != journal.MaxConversations {
		t.Fatalf("%d conversations kept, want %d", n, journal.MaxConversations)
	}
	tl, ok := j.Timeline("quiet")
	if !ok || tl.Agent != "" || !tl.Live || tl.Snapshot != nil || len(tl.Entries) != 1 || tl.Entries[0].Action != "quiet/0" {
		t.Fatalf("quiet's timeline is %+v (kept %v), want its one step, no agent, live, no snapshot", tl, ok)
	}
	kept := 0
	for i := range convs {
		conv := fmt.Sprint("c", i)
		tl, ok := j.Timeline(conv)
		if !ok {
			continue
		}
		kept++
		// Each round evicted it before its step (it was then among the
		// least recently heard from): only its last step is left, and the
		// agent and snapshot of the first round went with the first
		// eviction.
		if len(tl.Entries) != 1 || tl.Entries[0].Action != conv+"/2" || tl.Entries[0].Conversation != conv {
			t.Fatalf("%s's timeline holds %+v, want only its own last step", conv, tl.Entries)
		}
		if tl.Agent != "" || tl.Snapshot != nil {
			t.Fatalf("%s shows agent %q and a snapshot %v: left over from the conversation whose place it took", conv, tl.Agent, tl.Snapshot != nil)
		}
	}
	// The settling markers (each in the last one's place) and quiet took
	// the places of two of them.
	if kept != journal.MaxConversations-2 {
		t.Fatalf("%d of the stepping conversations kept, want %d", kept, journal.MaxConversations-2)
	}
}

// Every entry comes back as its event said it, whether the journal keeps it
// in its small form for steps or whole: the JSON the conversation view reads
// is the same byte for byte, moves included.
func TestTimelineEntriesComeBackAsTheEventsSaidThem(t *testing.T) {
	now := time.Now()
	zone := time.FixedZone("X", 5*3600+1800)
	steps := []*messages.StepTaken{
		{Conversation: "c1", Agent: "ada", Action: "navigate", Outcome: "loaded", URL: "https://a.example/p?x=1",
			StepsUsed: 3, StepsMax: 80, Took: 1500 * time.Millisecond, At: now},
		{Conversation: "c1", Agent: "ada", Action: "click", Code: messages.CodeStaleRef, StepsUsed: 4, StepsMax: 80, At: now.Add(time.Millisecond)},
		{Conversation: "c1", Agent: "ada", Action: "observe", At: time.Date(2031, 2, 3, 4, 5, 6, 7, time.UTC)},
		{Conversation: "c1", Agent: "ada", Action: "observe", At: time.Date(2031, 2, 3, 4, 5, 6, 8, zone)},
		{Conversation: "c1", Agent: "ada", Action: "wait_for", Took: 40 * 24 * time.Hour, At: now.Add(2 * time.Millisecond)},
		{Conversation: "c1", Agent: "ada", Action: "scroll", StepsUsed: 1 << 40, At: now.Add(3 * time.Millisecond)},
		{Conversation: "c1", Agent: "ada", Action: "press", At: time.Date(1500, 1, 1, 0, 0, 0, 0, time.Local)},
	}
	task := messages.TaskView{Conversation: "c1", Agent: "ada", State: "running", Description: "read — \"it\""}
	request := messages.SiteRequest{Conversation: "c1", Agent: "ada", Site: "b.example", URL: "https://b.example/", At: now}
	var evs []messages.Event
	want := []messages.TimelineEntry{}
	evs = append(evs, &messages.TaskChanged{Task: task, At: now})
	want = append(want, messages.TimelineEntry{Kind: messages.EntryTask, Conversation: "c1", At: now, State: "running", Text: task.Description})
	for _, s := range steps {
		evs = append(evs, s)
		want = append(want, messages.StepEntry(s))
	}
	evs = append(evs, &messages.ApprovalRequested{Request: request}, &messages.ApprovalRequested{Request: request, Decision: messages.DecideOnce})
	want = append(want, messages.TimelineEntry{Kind: messages.EntryApproval, Conversation: "c1", At: now, Site: "b.example",
		URL: "https://b.example/", Decision: messages.DecideOnce})

	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	settle(t, b, j, evs...)
	check := func(id string) {
		t.Helper()
		tl, ok := j.Timeline(id)
		if !ok {
			t.Fatalf("no timeline of %s", id)
		}
		got, err := json.Marshal(tl.Entries)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		if string(got) != string(wantJSON) {
			t.Fatalf("the timeline of %s says\n%s\nwhere the events said\n%s", id, got, wantJSON)
		}
	}
	check("c1")
	settle(t, b, j, &messages.ConversationMoved{From: "c1", To: "c2"})
	check("c2") // the moved entries still name c1, as their events did
}

// A conversation whose session showed itself before any step gives an
// empty list of entries, not null: the conversation view iterates it.
func TestATimelineWithNothingYetListsNoEntries(t *testing.T) {
	b := events.New()
	j := journal.Start(b)
	defer j.Close()
	settle(t, b, j, &messages.SessionChanged{Session: messages.SessionInfo{Conversation: "c1", Agent: "ada"}})
	tl, ok := j.Timeline("c1")
	if !ok {
		t.Fatal("no timeline of a conversation whose session showed itself")
	}
	out, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"entries":[]`) {
		t.Fatalf("the timeline of a conversation with nothing yet is %s", out)
	}
}
