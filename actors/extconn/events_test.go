package extconn_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// TestEventsReachListenersOnlyFromTheLiveConnectionAndDroppedEndsThem:
// the live connection's events reach every listener; a connection still
// proving itself is refused for sending one; when the live connection
// goes, every listener hears dropped; an unlistened one hears nothing.
func TestEventsReachListenersOnlyFromTheLiveConnectionAndDroppedEndsThem(t *testing.T) {
	b := start(t)
	heard := make(chan *extwire.Event, 16)
	stop, err := extconn.Subscribe(b.sys.Root, b.pid, func(ev *extwire.Event) { heard <- ev })
	if err != nil {
		t.Fatal(err)
	}
	quiet := make(chan *extwire.Event, 16)
	unlisten, err := extconn.Subscribe(b.sys.Root, b.pid, func(ev *extwire.Event) { quiet <- ev })
	if err != nil {
		t.Fatal(err)
	}
	unlisten()

	a, _ := b.pair(t, idA)
	a.msg(&extwire.Event{Type: "event", Name: "frame", Tab: 7, Data: json.RawMessage(`{"data":"AA=="}`)})
	ev := next(t, heard)
	if ev.Name != "frame" || ev.Tab != 7 || string(ev.Data) != `{"data":"AA=="}` {
		t.Fatalf("the listener heard %+v", ev)
	}

	proving := b.open(t, idA)
	proving.msg(&extwire.Event{Type: "event", Name: "frame", Tab: 7})
	proving.expectClosed(messages.CodeExtRefused)

	a.link.Gone()
	if ev := next(t, heard); ev.Name != extconn.Dropped {
		t.Fatalf("after the live connection went the listener heard %+v; want %s", ev, extconn.Dropped)
	}
	stop()
	select {
	case ev := <-quiet:
		t.Fatalf("a listener that was removed heard %+v", ev)
	default:
	}
}

func next(t *testing.T, c chan *extwire.Event) *extwire.Event {
	t.Helper()
	select {
	case ev := <-c:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event reached the listener")
		return nil
	}
}
