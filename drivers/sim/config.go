package sim

import (
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// Config shapes the simulated site and how the driver misbehaves. The zero
// value is a fast, well-behaved driver over a 50-page site.
type Config struct {
	Pages       int           // link pages and form pages each; default 50
	Elements    int           // interactive elements per page; default 40, at least 12
	Latency     time.Duration // added to every Observe and Do; 0 adds none
	LoadLatency time.Duration // added to every navigation, including clicks and submits that navigate
	Faults      Faults
	Seed        int64            // seeds the site and the fault draws
	Now         func() time.Time // stamps observations; default time.Now
	CastFPS     int              // a pinned page's screencast frames a second; default 10
	CastBytes   int              // pad each screencast frame to this many bytes (load tests)
	CastFails   bool             // every screencast start fails, as on a page that does not answer
	FitsLost    int              // the first this many layouts for a touch screen are answered but not taken, as Chromium now and then does
	CastsBlank  int              // the first this many screencast starts succeed but send no picture, as Chromium now and then does
	FitLatency  time.Duration    // added to every layout for a touch screen

	// Hosts are more hosts the simulation serves, each a copy of the site
	// at https://<host>. They are not preview origins: the URL rules, site
	// approval and air-gap treat them as the public sites they look like.
	Hosts []string
	// Redirects sends a navigation to a key URL to its value instead, the
	// way a server's redirect would, without the URL rules seeing the hop
	// (the real browser's hook checks every hop; the simulation has none).
	Redirects map[string]string

	// OnInput, when set, is called once for every input dispatched to a
	// page, on the caller's goroutine, with no lock held.
	OnInput func(conversation string, kind drivers.Kind)
}

// Faults are probabilities, from 0 to 1, that one call misbehaves.
type Faults struct {
	SlowLoad     float64 // a navigation takes ten times LoadLatency (at least a second)
	TabGone      float64 // the active tab closes under the call: tab_gone
	TargetMiss   float64 // a targeted input finds nothing: target_not_found
	PartialInput float64 // an input half happens: input_uncertain, still counted
	ObserveFail  float64 // an observation fails: not_answering
}

func (f Faults) any() bool {
	return f.SlowLoad > 0 || f.TabGone > 0 || f.TargetMiss > 0 || f.PartialInput > 0 || f.ObserveFail > 0
}

// Defaults and bounds.
const (
	defaultPages    = 50
	defaultElements = 40
	minElements     = 12
	defaultTimeout  = 30 * time.Second // navigate and wait_for without Action.Timeout
	minSlowLoad     = time.Second
	viewportLines   = 60     // lines an observation shows without FullPage
	defaultTreeMax  = 40_000 // tree characters of a full or region read without ObserveOptions.MaxChars
	defaultViewMax  = 4_000  // tree characters of the viewport part
	defaultDOMMax   = 8000   // dom characters without Action.MaxChars
	historyMax      = 50     // history entries kept per tab
	consoleMax      = 50     // console lines kept per conversation
)

func (c Config) withDefaults() Config {
	if c.CastFPS <= 0 {
		c.CastFPS = 10
	}
	if c.Pages <= 0 {
		c.Pages = defaultPages
	}
	if c.Elements <= 0 {
		c.Elements = defaultElements
	}
	c.Elements = max(c.Elements, minElements)
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// slowLoad is how long a navigation hit by the SlowLoad fault takes.
func (c Config) slowLoad() time.Duration {
	return max(10*c.LoadLatency, minSlowLoad)
}
