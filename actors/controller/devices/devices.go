// Package devices is the controller's book of browsers signed in to the
// dashboard: each holds a cookie whose hash, label and expiry the ledger
// keeps, and is found by that hash on every dashboard request. It holds no
// lock; the controller actor is its only user.
package devices

import (
	"sort"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// Max bounds how many devices may be signed in at once: the oldest is
// signed out to make room.
const Max = 32

// Book holds the signed-in devices.
type Book struct {
	byID   map[string]ledger.Device
	byHash map[string]string
	seen   map[string]time.Time // last request, by ID; not stored
	now    func() time.Time
}

// New returns a book of the stored devices that have not expired.
func New(stored []ledger.Device, now func() time.Time) *Book {
	b := &Book{byID: map[string]ledger.Device{}, byHash: map[string]string{}, seen: map[string]time.Time{}, now: now}
	for _, d := range stored {
		if now().Before(d.Expires) {
			b.put(d)
		}
	}
	return b
}

func (b *Book) put(d ledger.Device) {
	b.byID[d.ID] = d
	b.byHash[d.TokenHash] = d.ID
}

// Add signs a device in; evicted is the oldest device it replaced when the
// book was full.
func (b *Book) Add(m *messages.AddDevice) (d ledger.Device, evicted *ledger.Device, e *messages.Error) {
	v := m.Device
	if v.ID == "" || m.TokenHash == "" || !v.Expires.After(b.now()) {
		return d, nil, &messages.Error{Code: messages.CodeBadInput, Message: "A device needs an id, a token and an expiry in the future."}
	}
	if len(b.byID) >= Max {
		old := b.oldest()
		b.Remove(old.ID)
		evicted = &old
	}
	d = ledger.Device{ID: v.ID, TokenHash: m.TokenHash, Label: v.Label, Created: v.Created, Expires: v.Expires, Tailnet: v.Tailnet}
	b.put(d)
	b.seen[d.ID] = b.now()
	return d, evicted, nil
}

func (b *Book) oldest() ledger.Device {
	var o ledger.Device
	for _, d := range b.byID {
		if o.ID == "" || d.Created.Before(o.Created) {
			o = d
		}
	}
	return o
}

// Find is the device whose cookie hashes to hash, seen now. An expired
// device is forgotten and refused; expired is then its id, whose record
// the caller deletes.
func (b *Book) Find(hash string) (v *messages.DeviceView, expired string, e *messages.Error) {
	id, ok := b.byHash[hash]
	if !ok {
		return nil, "", &messages.Error{Code: messages.CodeUnauthorized,
			Message: "This browser is not signed in to buddi; open the sign-in link `buddi serve` printed, or run `buddi open` for a new one."}
	}
	d := b.byID[id]
	if !b.now().Before(d.Expires) {
		b.Remove(id)
		return nil, id, &messages.Error{Code: messages.CodeSignInExpired,
			Message: "This browser's sign-in has expired; run `buddi open` on the computer buddi runs on for a new sign-in link."}
	}
	b.seen[id] = b.now()
	view := b.view(d)
	return &view, "", nil
}

// Remove signs a device out.
func (b *Book) Remove(id string) (ledger.Device, *messages.Error) {
	d, ok := b.byID[id]
	if !ok {
		return d, messages.Errorf(messages.CodeNotFound, "No device %q is signed in; the list of devices shows the ones that are.", id)
	}
	delete(b.byID, id)
	delete(b.byHash, d.TokenHash)
	delete(b.seen, id)
	return d, nil
}

// List is every signed-in device, newest first.
func (b *Book) List() messages.DeviceList {
	out := make(messages.DeviceList, 0, len(b.byID))
	for _, d := range b.byID {
		out = append(out, b.view(d))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out
}

func (b *Book) view(d ledger.Device) messages.DeviceView {
	return messages.DeviceView{ID: d.ID, Label: d.Label, Created: d.Created, Expires: d.Expires, LastSeen: b.seen[d.ID], Tailnet: d.Tailnet}
}
