package playwright

import (
	"context"
	"strconv"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
)

// titleWait bounds reading one tab's title: a tab busy in its own script
// leaves its title out rather than holding up the answer.
const titleWait = 2 * time.Second

// titleExpr reads the title cut in the page, so that a title of megabytes
// never crosses to buddi. String() bounds what a page that redefines
// document.title returns.
var titleExpr = "String(document.title).slice(0, " + strconv.Itoa(drivers.MaxTitle) + ")"

// clickTitleExpr waits in the page for the next click an input dispatched
// (a trusted one: a script's el.click() does not count) and reads the title
// once that event has reached the window on its way back up: every
// handler of the click has run by then, with the promises they settled. A
// click whose propagation a handler stopped gives the title a task later.
// After clickTitleWait with no click it gives null.
var clickTitleExpr = `new Promise((done) => {
  const read = () => done(` + titleExpr + `);
  const up = () => queueMicrotask(read);
  const give = (e) => {
    if (!e.isTrusted) return;
    removeEventListener('click', give, true);
    clearTimeout(late);
    addEventListener('click', up, { once: true });
    setTimeout(() => { removeEventListener('click', up); read(); }, 0);
  };
  const late = setTimeout(() => { removeEventListener('click', give, true); done(null); }, ` +
	strconv.Itoa(int(clickTitleWait/time.Millisecond)) + `);
  addEventListener('click', give, true);
})`

// clickTitleWait bounds how long a read armed for the next click waits in
// the page for it.
const clickTitleWait = 5 * time.Minute

// titleAfterClick is the title, read in the page as the handlers of the
// click about to be dispatched in its own document end, so that a click
// that stays on the page answers with no call of its own after the click.
// A tab keeps one such read waiting in the page for its next click,
// armed again as each one answers: only a tab's first click, and the
// first in a new document, send theirs as they start. A read that
// answered before this click was another's (the owner's hand) and is
// dropped. The channel gives the title when the page gave one, and is
// closed without one when it did not (no click came, the document went
// away): the title is read the usual way then. A nil channel, which never
// gives, when a read is in flight that this click cannot use.
func (t *tab) titleAfterClick() <-chan string {
	t.mu.Lock()
	ch := t.armed
	t.armed = nil
	t.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		default:
			return ch
		}
	}
	return t.armTitle()
}

// armTitle sends one read of the title after the next click into the page
// (clickTitleExpr) and returns its channel; nil when one is in flight
// already (a page that never answers holds one read, not one per click).
// When the page answers with a title, the next click's read is armed at
// once, in the background.
func (t *tab) armTitle() <-chan string {
	s := t.session()
	if s == nil || t.closed.Load() || !t.clickTitle.CompareAndSwap(false, true) {
		return nil
	}
	out := make(chan string, 1)
	go func() {
		v, err := send(s, cdp.Evaluate{Expression: clickTitleExpr, ReturnByValue: true, AwaitPromise: true})
		t.clickTitle.Store(false)
		title, ok := resultValue(v).(string)
		if err == nil && ok {
			out <- messages.Clip(title, drivers.MaxTitle)
		}
		close(out)
		if err == nil && ok {
			t.keepArmed()
		}
	}()
	return out
}

// keepArmed arms the read the tab's next click takes.
func (t *tab) keepArmed() {
	ch := t.armTitle()
	if ch == nil {
		return
	}
	t.mu.Lock()
	t.armed = ch
	t.mu.Unlock()
}

// stayedOn is the outcome of an input that stayed on the page. Its title
// is the one early gives when that has come; when it has not, the title is
// read now too, and the first of the two to come is the answer.
func (t *tab) stayedOn(ctx context.Context, early <-chan string) *drivers.Outcome {
	out := &drivers.Outcome{Result: drivers.SamePage, URL: t.page.URL()}
	select {
	case title, ok := <-early:
		if ok {
			t.owner.earlyTitles.Add(1)
			out.Title = title
			return out
		}
		early = nil // it gave none: no title is coming that way
	default:
	}
	if early == nil {
		out.Title = t.title(ctx)
		return out
	}
	read := make(chan string, 1)
	go func() { read <- t.title(ctx) }()
	select {
	case title, ok := <-early:
		if !ok {
			out.Title = <-read
			return out
		}
		t.owner.earlyTitles.Add(1)
		out.Title = title
	case title := <-read:
		out.Title = title
	}
	return out
}

// title is the page's title, cut in the page to drivers.MaxTitle, read
// over the tab's own DevTools session (no engine, no wait for the
// document): "" when the page does not answer within titleWait.
func (t *tab) title(ctx context.Context) string {
	s := t.session()
	if s == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, titleWait)
	defer cancel()
	v, err := call(ctx, func() (any, error) {
		return send(s, cdp.Evaluate{Expression: titleExpr, ReturnByValue: true})
	})
	if err != nil {
		return ""
	}
	title, _ := resultValue(v).(string)
	return messages.Clip(title, drivers.MaxTitle)
}
