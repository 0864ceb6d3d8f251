package ui

import (
	"sync"
	"time"

	"github.com/buddi-dev/buddi/secret"
)

// Sign-in links: a one-time token in the fragment of the dashboard's URL
// (a fragment never reaches a server's log or a Referer), kept here only
// as its hash, spent by its first use.
const (
	linkTTL  = 15 * time.Minute
	maxLinks = 16 // the oldest unspent link goes first
)

type links struct {
	now  func() time.Time
	mu   sync.Mutex
	open map[string]time.Time // token hash → expiry
}

func newLinks(now func() time.Time) *links { return &links{now: now, open: map[string]time.Time{}} }

// add makes a new link's token and its expiry.
func (l *links) add() (token string, expires time.Time) {
	token = secret.New("bl_")
	expires = l.now().Add(linkTTL)
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.open) >= maxLinks {
		var oldest string
		for h, exp := range l.open {
			if oldest == "" || exp.Before(l.open[oldest]) {
				oldest = h
			}
		}
		delete(l.open, oldest)
	}
	l.open[secret.Hash(token)] = expires
	return token, expires
}

// spend uses a link up; false when it is unknown, spent or expired.
func (l *links) spend(token string) bool {
	h := secret.Hash(token)
	l.mu.Lock()
	defer l.mu.Unlock()
	exp, ok := l.open[h]
	delete(l.open, h)
	return ok && l.now().Before(exp)
}
