package playwright

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// Shrink exposes the screenshot scaler to the black-box tests.
func Shrink(raw []byte, edge int) ([]byte, int, int, error) {
	s, err := shrink(raw, edge)
	if err != nil {
		return nil, 0, 0, err
	}
	return s.jpeg, s.width, s.height, nil
}

// WritePrefs exposes the profile preferences writer to the fuzz test.
var WritePrefs = writePrefs

// FindIn is Find on a made-up system: goos, a home directory, the
// executables that exist and the names PATH resolves.
func FindIn(cfg Config, goos, home string, exists map[string]bool, path map[string]string) (string, error) {
	l := lookup{goos: goos, home: home, executable: func(p string) bool { return exists[p] },
		onPath: func(name string) (string, error) {
			if p, ok := path[name]; ok {
				return p, nil
			}
			return "", errNoBrowser
		}}
	return l.find(cfg)
}

// SetViewport sets the size of the conversation's active tab.
func SetViewport(ctx context.Context, tabs drivers.Tabs, w, h int) error {
	t, err := tabs.(*Tabs).current()
	if err != nil {
		return err
	}
	return do(ctx, func() error { return t.page.SetViewportSize(w, h) })
}

// PathTo exposes the directories openToGroup opens.
var PathTo = pathTo

// MissingInView lists the controls a person sees in the conversation's
// active tab (each in the viewport and on top at its visible centre, in
// the page's own document) that none of refs names, as "tag: text" lines.
// It is the tests' own reading of the page, apart from the walker's. A
// link inside a heading counts as the heading's, which is listed.
func MissingInView(ctx context.Context, tabs drivers.Tabs, refs []string) ([]string, error) {
	t, err := tabs.(*Tabs).current()
	if err != nil {
		return nil, err
	}
	var missing []string
	err = do(ctx, func() error {
		for _, ref := range refs {
			loc := t.page.MainFrame().Locator(refSelector(ref))
			if n, err := loc.Count(); err != nil || n != 1 {
				continue // a ref in a frame, or gone
			}
			if _, err := loc.Evaluate(`(el, ref) => el.setAttribute('data-test-ref', ref)`, ref); err != nil {
				return err
			}
		}
		v, err := t.page.Evaluate(inViewControls)
		if err != nil {
			return err
		}
		for _, s := range v.([]any) {
			missing = append(missing, s.(string))
		}
		return nil
	})
	return missing, err
}

// inViewControls is the tests' reading of what a person can click or type
// into on screen: links, buttons and fields that are rendered and whose
// visible centre shows the element itself (not a cover, not a scrolled-off
// part of a box). It returns those without a data-test-ref.
const inViewControls = `() => {
  const sel = 'a[href],area[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],' +
    '[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=textbox],[role=searchbox],[role=combobox],[role=switch],' +
    '[contenteditable=""],[contenteditable=true]';
  const vw = innerWidth, vh = innerHeight, out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (el.parentElement && el.parentElement.closest(sel)) continue; // a control inside a control counts as its outer one
    let seen = false;
    for (const r of el.getClientRects()) {
      const l = Math.max(0, r.left), t = Math.max(0, r.top), rr = Math.min(vw, r.right), b = Math.min(vh, r.bottom);
      if (rr - l < 1 || b - t < 1) continue;
      const h = document.elementFromPoint((l + rr) / 2, (t + b) / 2);
      if (h && (h === el || el.contains(h))) { seen = true; break; }
    }
    // A heading's own link is clicked through the heading, which is listed.
    const heading = el.closest('h1,h2,h3,h4,h5,h6,[role=heading]');
    if (heading && heading.hasAttribute('data-test-ref')) continue;
    if (seen && !el.hasAttribute('data-test-ref')) out.push(el.localName + ': ' + (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 60));
  }
  for (const el of document.querySelectorAll('[data-test-ref]')) el.removeAttribute('data-test-ref');
  return out;
}`

// Watch is the watchdog's view of one page, for the black-box tests.
type Watch struct{ w watch }

// Read marks one of buddi's reads of a large document in flight, as a read
// does once the page answered that its renderer is free; the returned func
// ends it.
func (w *Watch) Read() func(error) { return w.w.mark() }

// Ask sends the watchdog's question at now; it is answered when answer is
// closed.
func (w *Watch) Ask(now time.Time, answer <-chan struct{}) {
	w.w.ask(now, func() error { <-answer; return nil })
}

// Excused reports whether the question in flight is excused at now.
func (w *Watch) Excused(now time.Time) bool { return w.w.excused(now, ownReadPatience) }

// Navigated records the main frame asking for a new document at at, as
// the watchdog sees it: its size is not known and it is loading.
func (w *Watch) Navigated(at time.Time) {
	w.w.size.Store(0)
	w.w.loading.Store(true)
	w.w.navAt.Store(at.UnixNano())
}

// Answered records the page answering the watchdog's question at at,
// its document then of size elements.
func (w *Watch) Answered(at time.Time, size int64) {
	w.w.ping.answeredOK(at)
	w.w.size.Store(size)
}

// Loaded records the document's load event at at.
func (w *Watch) Loaded(at time.Time) {
	w.w.loaded.Store(at.UnixNano())
	w.w.loading.Store(false)
}

// Settling reports whether the page is taken as one still being laid
// out after its load event.
func (w *Watch) Settling() bool { return w.w.settling() }

// OwnReadPatience is how long a question behind a read that gave up is
// excused.
const OwnReadPatience = ownReadPatience

// ActivePage is the conversation's active tab's page, for benchmarks that
// run raw Playwright calls beside the driver's on the same page.
func ActivePage(tabs drivers.Tabs) (pw.Page, error) {
	t, err := tabs.(*Tabs).current()
	if err != nil {
		return nil, err
	}
	return t.page, nil
}

// EngineSource is the walker engine the driver registers, with its field
// rules.
func EngineSource(tabs drivers.Tabs) string { return walker.Source(tabs.(*Tabs).d.cfg.FieldRules) }

// ObserveBody is the engine body of the read Observe makes for opts on the
// active tab, arguments and ref base included.
func ObserveBody(tabs drivers.Tabs, opts drivers.ObserveOptions) (string, error) {
	t, err := tabs.(*Tabs).current()
	if err != nil {
		return "", err
	}
	args, _, err := t.readArgs(opts)
	if err != nil {
		return "", err
	}
	args.Base = t.owner.refBase()
	raw, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	return "observe " + url.PathEscape(string(raw)), nil
}

// RefSelector is the Playwright selector a ref resolves to.
var RefSelector = refSelector

// CheckedSelector is the selector a click or fill on tg, a ref of the
// latest observation, goes through (quick); "" when it goes the long way.
func CheckedSelector(tabs drivers.Tabs, tg *drivers.Target) (string, error) {
	r := tabs.(*Tabs).quick(tg)
	if r == nil {
		return "", nil
	}
	body, err := walker.CheckedRef(r.ref, &r.info)
	return engineName + "=" + body, err
}

// Waited is how many inputs of the conversation waited a window for a
// navigation to start.
func Waited(tabs drivers.Tabs) int64 { return tabs.(*Tabs).waited.Load() }

// EarlyTitles is how many clicks of the conversation that stayed on the
// page answered with the title read in the page as their handlers ended.
func EarlyTitles(tabs drivers.Tabs) int64 { return tabs.(*Tabs).earlyTitles.Load() }

// DirectReads is how many engine reads of tabs went straight to the engine's world.
func DirectReads(tabs drivers.Tabs) int64 { return tabs.(*Tabs).directReads.Load() }

// LateReads is how many reads of the main frame that could have gone
// direct went through Playwright's selectors.
func LateReads(tabs drivers.Tabs) int64 { return tabs.(*Tabs).lateReads.Load() }

// HoldMourning keeps the driver from mourning its browser (telling each
// conversation the browser restarted, and starting another) until release
// is called; dead reports whether that browser reads as dead meanwhile.
func HoldMourning(d *Driver) (dead func() bool, release func()) {
	d.mu.Lock()
	b := d.b
	return b.dead.Load, d.mu.Unlock
}

// Painted reports whether the conversation's active tab heard the first
// paint of the document the gate let through last.
func Painted(tabs drivers.Tabs) bool {
	ts := tabs.(*Tabs)
	ts.mu.Lock()
	t := ts.active
	ts.mu.Unlock()
	if t == nil {
		return false
	}
	t.stops.mu.Lock()
	defer t.stops.mu.Unlock()
	return t.stops.paintSeen
}
