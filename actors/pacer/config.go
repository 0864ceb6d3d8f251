package pacer

import (
	"log/slog"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Steps are the quality steps, best first.
var Steps = []drivers.CastOptions{
	{MaxWidth: 960, MaxHeight: 600, Quality: 50},
	{MaxWidth: 640, MaxHeight: 400, Quality: 40},
}

// Config is what a pacer needs. Zero limits take the specification's.
type Config struct {
	Pin    drivers.Pinned
	Screen messages.HandScreen
	// Steps are the quality steps, best first; nil is the package's Steps.
	// One step never changes (benchmarks of a step's bytes per second).
	Steps []drivers.CastOptions
	Log   *slog.Logger
	Now   func() time.Time

	StepBehind int           // bytes behind that, for StepAfter, step down
	Window     time.Duration // how far back "behind" looks
	StepAfter  time.Duration // how long behind before stepping down
	ClearAfter time.Duration // how long clear before stepping back up
	MaxBehind  int           // bytes behind that end the hand
	Tick       time.Duration // how often the steps are reconsidered
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if len(c.Steps) == 0 {
		c.Steps = Steps
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.StepBehind <= 0 {
		c.StepBehind = messages.HandStepBehind
	}
	if c.Window <= 0 {
		c.Window = time.Second
	}
	if c.StepAfter <= 0 {
		c.StepAfter = messages.HandStepAfter
	}
	if c.ClearAfter <= 0 {
		c.ClearAfter = messages.HandClearAfter
	}
	if c.MaxBehind <= 0 {
		c.MaxBehind = messages.HandMaxBehind
	}
	if c.Tick <= 0 {
		c.Tick = 250 * time.Millisecond
	}
	return c
}
