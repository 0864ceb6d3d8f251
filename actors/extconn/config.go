package extconn

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages/extwire"
)

// Config is what the connection actor needs. Zero limits take the
// specification's (package extwire).
type Config struct {
	Dir    string // the data directory, where extension.json lives
	Name   string // which buddi this is, as the popup shows it
	Folder string // the unpacked extension shipped with buddi; "" when not found
	Now    func() time.Time
	Log    *slog.Logger
	Limits Limits
	// Online, when set, is kept true while an extension is connected and
	// proven, for readers that must not wait on the actor.
	Online *atomic.Bool
}

// Limits are the connection's rules.
type Limits struct {
	PingEvery   time.Duration
	MissedPings int
	CommandWait time.Duration
	AbandonWait time.Duration
	CodeLife    time.Duration
	CodeTries   int
	HelloWait   time.Duration
	Pending     int           // connections still proving themselves at once
	Pairing     int           // connections showing a code at once
	Queue       int           // commands waiting behind an abandon
	Tick        time.Duration // how often the limits are looked at
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Online == nil {
		c.Online = &atomic.Bool{}
	}
	if c.Name == "" {
		c.Name = "buddi"
	}
	l := &c.Limits
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	defInt := func(n *int, v int) {
		if *n <= 0 {
			*n = v
		}
	}
	def(&l.PingEvery, extwire.PingEvery)
	def(&l.CommandWait, extwire.CommandWait)
	def(&l.AbandonWait, extwire.AbandonWait)
	def(&l.CodeLife, extwire.CodeLife)
	def(&l.HelloWait, extwire.HelloWait)
	def(&l.Tick, 500*time.Millisecond)
	defInt(&l.MissedPings, extwire.MissedPings)
	defInt(&l.CodeTries, extwire.CodeTries)
	defInt(&l.Pending, extwire.MaxConnected)
	defInt(&l.Pairing, extwire.MaxPairing)
	defInt(&l.Queue, 64)
	return c
}
