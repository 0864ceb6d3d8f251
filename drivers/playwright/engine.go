package playwright

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// engineName is the selector engine the driver registers with Playwright. It
// runs as a content script, in the same isolated world as Playwright's own
// injected script, so it sees the refs that aria snapshots record on
// elements (the _ariaRef expando) while the page's scripts see nothing.
//
// Bodies:
//
//	ref eN          the element that carries ref eN (at most one)
//	fp e1 e2 ...    a carrier whose text is JSON {ref: elemInfo} for the found refs
//	roots N         a carrier with up to N CSS paths of subtrees covering the viewport
//	text N          a carrier with the page's visible text, cut after N chars
//	active          a carrier with the focused element's elemInfo (or null)
//
// A carrier is a detached element created for the answer; it is never
// inserted into the document.
const engineName = "buddi"

const engineSource = `(() => {
  const desc = (proto, name) => Object.getOwnPropertyDescriptor(proto, name);
  const getAttr = (el, n) => Element.prototype.getAttribute.call(el, n) || '';
  const hasAttr = (el, n) => Element.prototype.hasAttribute.call(el, n);
  const localName = desc(Element.prototype, 'localName').get;
  const formAction = desc(HTMLFormElement.prototype, 'action').get;
  const formMethod = desc(HTMLFormElement.prototype, 'method').get;
  const each = (doc, fn) => {
    const stack = [doc.documentElement];
    while (stack.length) {
      const el = stack.pop();
      if (!el || fn(el) === false) continue;
      if (el.shadowRoot) for (let c = el.shadowRoot.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
      for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
    }
  };
  const find = (doc, want) => {
    const found = new Map();
    each(doc, (el) => {
      const r = el._ariaRef;
      if (r && want.has(r.ref) && !found.has(r.ref)) found.set(r.ref, el);
    });
    return found;
  };
  const info = (el) => {
    const r = el._ariaRef;
    const tag = localName.call(el);
    const typed = tag === 'input' || tag === 'button' || tag === 'select' || tag === 'textarea';
    const form = typed || tag === 'fieldset' || tag === 'output' ? el.form : (tag === 'form' ? el : null);
    let action = '', method = '';
    if (form) {
      action = typed && hasAttr(el, 'formaction') ? el.formAction : formAction.call(form);
      method = typed && hasAttr(el, 'formmethod') ? el.formMethod : formMethod.call(form);
    }
    return {
      tag, role: r ? r.role : '', name: r ? r.name : '',
      id: getAttr(el, 'id'), nm: getAttr(el, 'name'),
      type: typed ? String(el.type || '') : getAttr(el, 'type'),
      href: getAttr(el, 'href'), action, method,
      ac: getAttr(el, 'autocomplete'), im: getAttr(el, 'inputmode'),
      pw: tag === 'input' && el.type === 'password',
    };
  };
  const fp = (doc, refs) => {
    const out = {};
    for (const [ref, el] of find(doc, new Set(refs))) out[ref] = info(el);
    return out;
  };
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e.parentElement; e = e.parentElement) {
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift(':nth-child(' + i + ')');
    }
    return ':root > ' + parts.join(' > ');
  };
  const roots = (doc, max) => {
    const win = doc.defaultView, vw = win.innerWidth, vh = win.innerHeight;
    const inView = [], below = [];
    const visit = (el, depth) => {
      if (inView.length + below.length >= max) return;
      const r = el.getBoundingClientRect();
      const empty = r.width === 0 || r.height === 0;
      const seen = r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw;
      const near = r.bottom > 0 && r.top < vh * 3 && r.right > 0 && r.left < vw;
      if (!empty && !near) return;
      const big = Math.max(r.height, el.scrollHeight) > vh * 1.5 || Math.max(r.width, el.scrollWidth) > vw * 1.5;
      if (!empty && (!big || !el.firstElementChild || depth > 60)) {
        (seen ? inView : below).push(el);
        return;
      }
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c, depth + 1);
    };
    const body = doc.body;
    if (!body) return { roots: [], whole: false };
    visit(body, 0);
    const all = inView.concat(below);
    return { roots: all.map(path), whole: all.length === 1 && all[0] === body };
  };
  const text = (doc, max) => {
    const root = doc.body || doc.documentElement;
    const t = root ? root.innerText || '' : '';
    return { text: t.slice(0, max), cut: t.length > max };
  };
  const active = (doc) => {
    let el = doc.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el && el !== doc.body ? info(el) : null;
  };
  const answer = (doc, value) => {
    const carrier = doc.createElement('div');
    carrier.textContent = JSON.stringify(value);
    return [carrier];
  };
  return {
    queryAll(root, body) {
      const doc = root.ownerDocument || root;
      const sp = body.indexOf(' ');
      const op = sp < 0 ? body : body.slice(0, sp);
      const arg = sp < 0 ? '' : body.slice(sp + 1);
      switch (op) {
        case 'ref': { const el = find(doc, new Set([arg])).get(arg); return el ? [el] : []; }
        case 'fp': return answer(doc, fp(doc, arg.split(' ').filter(Boolean)));
        case 'roots': return answer(doc, roots(doc, Number(arg) || 40));
        case 'text': return answer(doc, text(doc, Number(arg) || 8000));
        case 'active': return answer(doc, active(doc));
      }
      throw new Error('buddi engine: unknown body ' + body);
    },
  };
})()`

func registerEngine(p *pw.Playwright) error {
	err := p.Selectors.Register(engineName, pw.Script{Content: pw.String(engineSource)},
		pw.SelectorsRegisterOptions{ContentScript: pw.Bool(true)})
	if err != nil && !strings.Contains(err.Error(), "already registered") {
		return err
	}
	return nil
}

// refSelector locates the element carrying ref through the engine; it does
// not depend on which snapshot the frame took last.
func refSelector(ref string) string { return engineName + "=ref " + ref }

// probe runs one carrier query in frame and decodes its JSON into v.
func probe(ctx context.Context, f pw.Frame, body string, v any) error {
	loc := f.Locator(engineName + "=" + body)
	txt, err := call(ctx, func() (string, error) {
		return loc.TextContent(pw.LocatorTextContentOptions{Timeout: ms(ctx, 5*time.Second)})
	})
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(txt), v); err != nil {
		return fmt.Errorf("playwright: engine answer for %q: %w", strings.SplitN(body, " ", 2)[0], err)
	}
	return nil
}
