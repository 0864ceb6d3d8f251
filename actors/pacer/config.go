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
	// Portrait says the page starts taller than wide (laid out for a
	// phone held upright): each step's box is turned to fit it, the same
	// pixels either way. The pacer turns it again when the page turns.
	Portrait bool

	StepBehind int           // bytes behind that, for StepAfter, step down
	Window     time.Duration // how far back "behind" looks
	StepAfter  time.Duration // how long behind before stepping down
	ClearAfter time.Duration // how long clear before stepping back up
	MaxBehind  int           // bytes behind that end the hand
	Tick       time.Duration // how often the steps are reconsidered
	// Gap is the least time between two pictures the browser is let make
	// (an input's next picture is asked for at once).
	Gap time.Duration
	// FreshFor is how long after a press or a key pictures made before it
	// are dropped (a page that never paints its effect is shown as it is
	// after that).
	FreshFor time.Duration
	// Blank is how long a screencast that started may go without a
	// picture before it is started again, at most MaxBlanks times in a row.
	Blank     time.Duration
	MaxBlanks int
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
	if c.Gap <= 0 {
		c.Gap = 50 * time.Millisecond
	}
	if c.FreshFor <= 0 {
		c.FreshFor = 250 * time.Millisecond
	}
	if c.Blank <= 0 {
		c.Blank = time.Second
	}
	if c.MaxBlanks <= 0 {
		c.MaxBlanks = 3
	}
	return c
}
