package devices_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/devices"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func add(t *testing.T, b *devices.Book, c *clock, id string) {
	t.Helper()
	_, _, e := b.Add(&messages.AddDevice{TokenHash: "h-" + id,
		Device: messages.DeviceView{ID: id, Label: "phone", Created: c.t, Expires: c.t.Add(time.Hour)}})
	if e != nil {
		t.Fatal(e)
	}
}

func TestADeviceIsFoundByItsHashUntilItExpires(t *testing.T) {
	c := &clock{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := devices.New(nil, c.now)
	add(t, b, c, "d1")
	if v, _, e := b.Find("h-d1"); e != nil || v.ID != "d1" {
		t.Fatalf("find: %v %v", v, e)
	}
	if _, _, e := b.Find("h-other"); e == nil || e.Code != messages.CodeUnauthorized {
		t.Fatalf("an unknown cookie: %v", e)
	}
	c.t = c.t.Add(2 * time.Hour)
	if _, expired, e := b.Find("h-d1"); e == nil || e.Code != messages.CodeSignInExpired || expired != "d1" {
		t.Fatalf("an expired device: %v", e)
	}
	if len(b.List()) != 0 {
		t.Fatal("an expired device is still listed")
	}
}

func TestSignedOutDeviceIsNotFoundAndExpiredOnesAreNotLoaded(t *testing.T) {
	c := &clock{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := devices.New([]ledger.Device{
		{ID: "old", TokenHash: "h-old", Expires: c.t.Add(-time.Minute)},
		{ID: "ok", TokenHash: "h-ok", Expires: c.t.Add(time.Minute)},
	}, c.now)
	if len(b.List()) != 1 {
		t.Fatalf("loaded %v, want only the device that has not expired", b.List())
	}
	if _, e := b.Remove("ok"); e != nil {
		t.Fatal(e)
	}
	if _, _, e := b.Find("h-ok"); e == nil {
		t.Fatal("a signed-out device is still found")
	}
	if _, e := b.Remove("ok"); e == nil || e.Code != messages.CodeNotFound {
		t.Fatalf("signing out twice: %v", e)
	}
}

func TestAFullBookSignsOutTheOldestDevice(t *testing.T) {
	c := &clock{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := devices.New(nil, c.now)
	for i := range devices.Max {
		add(t, b, c, fmt.Sprint("d", i))
		c.t = c.t.Add(time.Second)
	}
	_, evicted, e := b.Add(&messages.AddDevice{TokenHash: "h-new",
		Device: messages.DeviceView{ID: "new", Created: c.t, Expires: c.t.Add(time.Hour)}})
	if e != nil || evicted == nil || evicted.ID != "d0" {
		t.Fatalf("evicted %v (%v), want d0", evicted, e)
	}
	if _, _, e := b.Find("h-d0"); e == nil {
		t.Fatal("the evicted device is still signed in")
	}
}
