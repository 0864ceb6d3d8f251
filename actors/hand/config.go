package hand

import (
	"context"
	"log/slog"
	"time"

	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Config is what a hand needs. Zero limits take the specification's.
type Config struct {
	Conversation string
	Open         func(context.Context) (drivers.Tabs, error) // the conversation's tabs
	Log          *slog.Logger
	Now          func() time.Time
	Limits       Limits
	Pacer        pacer.Config // its limits; Pin and Screen are the hand's to set
}

// Limits are the lease rules.
type Limits struct {
	MaxLife    time.Duration
	Idle       time.Duration
	PingEvery  time.Duration
	LeaseEvery time.Duration
	LeaseAfter time.Duration
	Tick       time.Duration // how often the limits are looked at
	InputWait  time.Duration // bound on one input's dispatch
	RefitAfter time.Duration // how long pictures of another size than the screen's are borne
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	l := &c.Limits
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.MaxLife, messages.HandMaxLife)
	def(&l.Idle, messages.HandIdle)
	def(&l.PingEvery, messages.HandPingEvery)
	def(&l.LeaseEvery, messages.HandLeaseEvery)
	def(&l.LeaseAfter, messages.HandLeaseAfter)
	def(&l.Tick, 250*time.Millisecond)
	def(&l.InputWait, 5*time.Second)
	def(&l.RefitAfter, 500*time.Millisecond)
	return c
}
