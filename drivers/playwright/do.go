package playwright

import (
	"context"
	"errors"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// Default bounds of actions.
const (
	navTimeout     = 15 * time.Second // navigate, and loads an action started
	inputTimeout   = 5 * time.Second  // waiting for an element to take input, on an idle machine (underLoad)
	waitDefault    = 5 * time.Second  // wait_for
	waitMax        = 15 * time.Second
	domChars       = 8000
	navStartWindow = 80 * time.Millisecond // how long a submit or a key press may take to start a navigation
)

// Do performs one action on the conversation's tabs.
func (ts *Tabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a == nil {
		return nil, badInput("No action was given.")
	}
	ctx, cancel := withDefault(ctx, 60*time.Second)
	defer cancel()
	ctx, end, err := ts.begin(ctx, a.Owner)
	if err != nil {
		return nil, err
	}
	defer end()
	// A click is seen by the next action that puts input on the page or
	// changes it (an untargeted press waits for the click's focus), which
	// then forgets it; reads between them (the owner's pictures too), as
	// the contract's table tells them, leave it.
	act := acting{Tabs: ts, clicked: ts.clicked}
	if spec := a.Kind.Spec(); spec.Mutating || spec.ChangesPage {
		ts.clicked = nil
	}
	out, err := drivers.Dispatch(ctx, act, a)
	if err != nil {
		err = ended(err, drivers.CodeTimeout, "The action did not finish in time; observe to see where the page is.")
		if t, _ := ts.current(); t != nil {
			t.witness(ctx, err)
		}
		if a.Owner {
			return nil, err // what happened to the page is the agent's news
		}
		return nil, ts.explain(err)
	}
	if out != nil {
		out.Bound()
		if out.Result == drivers.Loaded || out.Result == drivers.Navigated {
			if t, _ := ts.current(); t != nil {
				go t.warm()
			}
		}
	}
	return out, nil
}

// warm readies the document an action just loaded or navigated to for
// the agent's next calls, in the background. Its first read loads the
// engine for direct reads (install), which the next observe would
// otherwise wait for. It starts once the action has its answer, so that
// the action's own last reads (the title) do not wait behind it in the
// page: started at the page's load event instead, Playwright's injection
// made navigate 50 ms slower. Then, once the tabs have been let be for
// locatorWarmAfter, it has Playwright put its own injected script into the
// document, which the first input through a locator (a click, a fill)
// waits for otherwise: 60-110 ms of the page's main thread here, which an
// observe that came meanwhile would wait behind. It gives that up to the
// agent when the tabs are never free (at most locatorWarmTries), and once
// the document is no longer the one it warmed. Nothing keeps its reads.
func (t *tab) warm() {
	if t.closed.Load() || t.crashed.Load() {
		return
	}
	doc := t.docs.Load()
	ctx, cancel := context.WithTimeout(context.Background(), underLoad(readWait))
	defer cancel()
	var st navAnswer
	if err := t.probe(ctx, t.page.MainFrame(), "nav", &st); err != nil {
		return
	}
	for range locatorWarmTries {
		time.Sleep(locatorWarmAfter)
		if t.closed.Load() || t.crashed.Load() || t.docs.Load() != doc {
			return
		}
		select {
		case t.owner.turn <- struct{}{}:
		default:
			continue // an act is running; try again once it has been let be
		}
		t.warmLocators(doc, &st)
		<-t.owner.turn
		return
	}
}

// warmLocators has Playwright inject its script into document doc, with
// the conversation's turn taken: as a call does, it is what Interrupt
// abandons (a take-over, a Stop).
func (t *tab) warmLocators(doc uint64, st *navAnswer) {
	c, cancel := context.WithTimeout(context.Background(), underLoad(readWait))
	defer cancel()
	c, release := t.owner.interruptible(c)
	defer release()
	if t.docs.Load() == doc {
		_ = probe(c, t.page.MainFrame(), "nav", st)
	}
}

// How long warm lets the tabs be before Playwright's injection, and how
// many times it looks for them free.
const (
	locatorWarmAfter = 250 * time.Millisecond
	locatorWarmTries = 8
)

// acting is the conversation's tabs as the dispatcher drives them, inside
// Do's bounds: its methods are the actions. clicked is the frame of the
// previous action's click, if it was one.
type acting struct {
	*Tabs
	clicked pw.Frame
}

var _ drivers.Actions = acting{}

// onElement resolves a's target and performs f on the checked element.
func (ts acting) onElement(ctx context.Context, a *drivers.Action, f func(*resolved) (*drivers.Outcome, error)) (*drivers.Outcome, error) {
	r, err := ts.resolve(ctx, a.Target)
	if err != nil {
		return nil, err
	}
	return f(r)
}

// onPage performs f on the active tab.
func (ts acting) onPage(f func(*tab) (*drivers.Outcome, error)) (*drivers.Outcome, error) {
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	return f(t)
}

// quickly performs f on a's target resolved from its observation (quick),
// and the long way when that finds the element changed, or cannot be
// tried.
func (ts acting) quickly(ctx context.Context, a *drivers.Action, f func(*resolved) (*drivers.Outcome, error)) (*drivers.Outcome, error) {
	if r := ts.quick(a.Target); r != nil {
		if out, err := f(r); !errors.Is(err, errRecheck) {
			return out, err
		}
	}
	return ts.onElement(ctx, a, f)
}

func (ts acting) Click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.quickly(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.click(ctx, a) })
}

func (ts acting) Fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.quickly(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.fill(ctx, a) })
}

func (ts acting) Select(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.selectOptions(ctx, a) })
}

func (ts acting) Hover(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.hover(ctx) })
}

func (ts acting) Submit(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.submit(ctx, a) })
}

func (ts acting) Press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.press(ctx, a, ts.clicked)
}

func (ts acting) Scroll(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.scroll(ctx, a)
}

func (ts acting) Tab(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.tabOp(ctx, a)
}

func (ts acting) Navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.navigate(ctx, a) })
}

func (ts acting) History(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.history(ctx, a) })
}

func (ts acting) WaitFor(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.waitFor(ctx, a) })
}

func (ts acting) DOM(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.dom(ctx, a) })
}

func (ts acting) Console(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.consoleText(a), nil })
}

func (ts acting) Screenshot(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onPage(func(t *tab) (*drivers.Outcome, error) { return t.screenshotOutcome(ctx, a) })
}
