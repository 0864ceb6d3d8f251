// ops.js: the engine's answers. A body is an op name, a space, and
// URI-encoded JSON arguments.
const OUTLINE_SHARE = 900;

const info = (el) => {
  const tag = el.localName;
  const role = roleOf(el);
  const typed = tag === 'input' || tag === 'button' || tag === 'select' || tag === 'textarea';
  const form = typed || tag === 'fieldset' || tag === 'output' ? el.form : (tag === 'form' ? el : null);
  let action = '', method = '';
  if (form) {
    action = typed && el.hasAttribute('formaction') ? el.formAction : form.action;
    method = typed && el.hasAttribute('formmethod') ? el.formMethod : form.method;
  }
  const r = rectOf(el);
  const field = tag === 'input' || tag === 'select' || tag === 'textarea';
  return {
    tag, role, name: nameOf(el, role), id: attr(el, 'id'), nm: attr(el, 'name'),
    label: labelOf(el), ph: attr(el, 'placeholder') || attr(el, 'aria-placeholder'),
    tx: field ? '' : clip(contentText(el), NAME_CHARS),
    type: typed ? String(el.type || '') : attr(el, 'type'), href: attr(el, 'href'), action, method,
    ac: attr(el, 'autocomplete'), im: attr(el, 'inputmode'), pw: tag === 'input' && el.type === 'password',
    vis: el.isConnected && r.width > 0 && r.height > 0 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }),
  };
};

// matches says el is still the element want (an info of an earlier read)
// describes, as a fingerprint sees it (text aside) and as a field check
// does (autocomplete and input mode too), and is rendered.
const matches = (el, want) => {
  const now = info(el);
  return now.vis && now.tag === want.tag && now.role === want.role && now.name === want.name && now.id === want.id &&
    now.nm === want.nm && now.type === want.type && now.href === want.href && now.action === want.action &&
    String(now.method).toLowerCase() === String(want.method).toLowerCase() && now.ac === want.ac && now.im === want.im;
};

// RECHECK is the error a checked ref throws when its element is gone or
// not the element its observation described: the driver checks the ref
// the long way then, to say which.
const RECHECK = 'buddi: recheck ref';

// infos are the refs' infos as an answer carries them: a field that is
// empty or false is left out (the driver reads a missing field as that), so
// that a read of a hundred links does not carry a thousand empty strings.
const infos = (els) => {
  const out = {};
  for (const el of els) {
    const i = info(el), c = {};
    for (const k in i) if (i[k] !== '' && i[k] !== false) c[k] = i[k];
    out[refFor(el)] = c;
  }
  return out;
};

// countAfter is how many links, fields, buttons and headings follow el in
// root, up to (not including) end.
const countAfter = (root, el, end) => {
  const all = root.querySelectorAll(COUNTED);
  let lo = 0, hi = all.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (all[mid] === el || before(all[mid], el) || contains(el, all[mid])) lo = mid + 1; else hi = mid; }
  let n = 0;
  for (let i = lo; i < all.length; i++) { if (end && (all[i] === end || before(end, all[i]))) break; n++; }
  return n;
};

// region is what `within` reads: an element's subtree, or for a heading its
// section (see sectionEnd).
const region = (doc, el) => {
  const root = doc.body || doc.documentElement;
  if (roleOf(el) !== 'heading') return { root: el, from: null, stopAt: null, end: null };
  const { end, stopAt } = sectionEnd(doc, el);
  return { root, from: el, stopAt, end };
};

// rowRange reads "12-40" (or "12") as the first and last row, or null.
const rowRange = (s) => {
  const m = /^\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?$/.exec(s || '');
  if (!m) return null;
  const a = Math.max(1, Number(m[1]));
  return [a, Math.max(a, Number(m[2] || m[1]))];
};

// leftNotes says, inside each landmark and table, what a view left out:
// rows of a table to read with rows, text to read within the landmark.
// What no landmark holds is returned apart.
const leftNotes = (w, shown, left) => {
  const count = new Map();
  const rows = new Map();
  const outside = [];
  for (const e of left) {
    // Words beside a sidebar's links, and items no one can see, go
    // without a note.
    if (e.kind === 'item' || (e.kind === 'text' && e.prio === PRIO.chrome)) continue;
    let c = e.parent;
    while (c >= 0 && !isContainer(w.entries[c])) c = w.entries[c].parent;
    if (c < 0) { outside.push(e); continue; }
    shown.add(c);
    for (let p = w.entries[c].parent; p >= 0; p = w.entries[p].parent) if (isContainer(w.entries[p])) shown.add(p);
    if (e.kind === 'row' && e.n) {
      const r = rows.get(c) || [e.n, e.n];
      rows.set(c, [Math.min(r[0], e.n), Math.max(r[1], e.n)]);
    } else if (e.kind !== 'row') count.set(c, (count.get(c) || 0) + 1);
  }
  const notes = new Map();
  for (const [c, n] of count) notes.set(c, '- (' + n + ' more in view here: observe within ' + refFor(w.entries[c].el) + ')');
  for (const [c, [a, b]] of rows) {
    const range = a === b ? String(a) : a + '-' + b;
    notes.set(c, '- (rows ' + range + ' in view not shown: observe within ' + refFor(w.entries[c].el) + ' with rows "' + range + '")');
  }
  notes.outside = outside;
  return notes;
};

const viewRead = (doc, a) => {
  const root = doc.body || doc.documentElement;
  const t0 = performance.now();
  const w = walk(doc, root, { mode: 'view' });
  const t1 = performance.now();
  const reserve = a.outline ? Math.min(OUTLINE_SHARE, Math.floor(a.max / 4)) : 0;
  let notes = null;
  const r = chooseView(w, a.max - reserve, (shown, left) => (notes = leftNotes(w, shown, left)));
  const out = { lines: r.lines, refs: r.refs, continues: null };
  for (const c of notes.keys()) out.refs.push(w.entries[c].el);
  const outside = notes.outside;
  if (outside.length) {
    const first = outside.reduce((x, y) => (x.idx < y.idx ? x : y));
    let last = null;
    for (const e of w.entries) if (e.idx < first.idx && r.shown.has(e.idx) && !e.context && !e.inline) last = e;
    const after = last ? refFor(last.el) : '';
    if (last) out.refs.push(last.el);
    out.lines.push('- (' + outside.length + ' more in view: observe with fullPage' + (after ? ' after ' + after : '') + ')');
    out.continues = { fullPage: true, after, left: countAfter(root, last ? last.el : root, null) };
  }
  out.frames = w.entries.filter((e) => e.kind === 'frame' && r.shown.has(e.idx)).map((e) => ({ ref: e.slot, src: e.src }));
  const t2 = performance.now();
  if (a.outline) {
    const used = out.lines.reduce((n, l) => n + l.length + 1, 0);
    const shownEls = w.entries.filter((e) => e.kind === 'item' && r.shown.has(e.idx)).map((e) => e.el);
    const o = outline(doc, shownEls, Math.max(reserve, a.max - used));
    if (o.lines.length) {
      out.lines.push('Elsewhere on the page (observe within a ref to read it, or find):', ...o.lines);
      out.refs.push(...o.refs);
    }
  }
  out.ms = { walk: t1 - t0, render: t2 - t1, outline: performance.now() - t2, entries: w.entries.length, visited: w.visited.size };
  return out;
};

const fullRead = (doc, a) => {
  let root = doc.body || doc.documentElement, from = null, inclusive = false, stopAt = null, end = null;
  if (a.within) {
    const el = elementOf(a.within);
    if (!el) return { error: 'stale', ref: a.within };
    ({ root, from, stopAt, end } = region(doc, el));
    inclusive = !!from;
  }
  if (a.after) {
    const el = elementOf(a.after);
    if (!el) return { error: 'stale', ref: a.after };
    from = el;
    inclusive = false;
  }
  const rows = a.within && rowRange(a.rows);
  const w = walk(doc, root, { mode: 'full', from, inclusive, stopAt, budget: a.max, within: root, rows });
  const { shown, left } = choose(w, a.max);
  const r = render(w, shown, null);
  const out = { lines: r.lines, refs: r.refs, continues: null };
  if (left.length || w.more) {
    let last = null;
    for (const e of w.entries) if (shown.has(e.idx) && !e.context && !e.inline && !isContainer(e)) last = e;
    const anchor = last ? last.el : from;
    if (anchor) {
      const after = refFor(anchor);
      out.refs.push(anchor);
      out.continues = { fullPage: !a.within, within: a.within || '', after, left: countAfter(root, anchor, end) };
      out.lines.push('- (continues: ' + out.continues.left + ' more links, fields, buttons and headings after ' + after + ')');
    }
  }
  out.frames = w.entries.filter((e) => e.kind === 'frame' && shown.has(e.idx)).map((e) => ({ ref: e.slot, src: e.src }));
  return out;
};

const findRead = (doc, a) => {
  const t0 = performance.now();
  const f = find(doc, a.find);
  // The query is the agent's own: the head says only what came of it.
  const head = 'find: ' + (f.total === 0 ? 'no match' : f.total === 1 ? '1 match' : f.total + ' matches') +
    (f.unseen ? ' (' + f.unseen + ' not rendered)' : '') +
    (f.total - f.unseen > f.lines.length ? ', the best ' + f.lines.length + ' shown' : '');
  return { lines: [head, ...f.lines], refs: f.refs, continues: null, frames: [], ms: { walk: performance.now() - t0, ...f.ms } };
};

const observe = (doc, a) => {
  useBase(a.base || 1);
  models = new WeakMap();
  memo = newMemo();
  try {
    const out = a.find ? findRead(doc, a) : a.mode === 'full' ? fullRead(doc, a) : viewRead(doc, a);
    if (out.error) return out;
    return { ...navState(doc), tree: out.lines.join('\n'), infos: infos(out.refs), next: nextRef, continues: out.continues,
      frames: out.frames, url: clip(doc.URL, 4096), ms: out.ms };
  } finally {
    memo = null;
  }
};

// navState is what tells whether a key or a click moved the document: its
// navigation mark, whether its focus is in a frame (a key would go there,
// not into this document), and its title.
const navState = (doc) => {
  const el = deepActive(doc);
  return { nav: navMark(), owner: !!el && FRAME_OWNERS.has(el.localName), title: clip(doc.title, 300) };
};

const answer = (doc, value) => {
  const carrier = doc.createElement('div');
  carrier.textContent = JSON.stringify(value);
  return [carrier];
};

// The driver reads the main frame straight through DevTools too
// (Runtime.evaluate in this world's context), one round trip where
// Playwright's selector path takes more. The first query through
// Playwright publishes the function it calls: Playwright queries a
// content-script engine only in its own isolated world, so the function is
// never put where the page's scripts could see or replace it. Once the
// document is put away (pagehide: another document replaced it, or the
// back-forward cache keeps it) the function answers false, so a read of a
// cached document is never taken for the page the tab shows.
let showing = true, published = false;
const direct = (body) => {
  if (!showing) return false;
  const out = engine.queryAll(document, body);
  return out.length ? out[0].textContent : '';
};
const publish = () => {
  published = true;
  addEventListener('pagehide', () => { showing = false; }, true);
  addEventListener('pageshow', () => { showing = true; }, true);
  try {
    Object.defineProperty(globalThis, DIRECT, { value: direct });
  } catch (e) {
    // another copy of the engine in this world published first; it answers
  }
};

const engine = {
  queryAll(root, body) {
    if (!published) publish();
    const doc = root.ownerDocument || root;
    const sp = body.indexOf(' ');
    const op = sp < 0 ? body : body.slice(0, sp);
    const arg = sp < 0 ? '' : body.slice(sp + 1);
    switch (op) {
      case 'ref': {
        const [ref, want] = arg.split(' ');
        const el = elementOf(ref);
        if (!want) return el ? [el] : [];
        if (!el || !matches(el, JSON.parse(decodeURIComponent(want)))) throw new Error(RECHECK);
        return [el];
      }
      case 'fp': {
        const out = {};
        for (const ref of arg.split(' ').filter(Boolean)) { const el = elementOf(ref); if (el) out[ref] = info(el); }
        return answer(doc, out);
      }
      case 'observe': return answer(doc, observe(doc, JSON.parse(decodeURIComponent(arg))));
      case 'html': return answer(doc, htmlOf(doc, JSON.parse(decodeURIComponent(arg))));
      case 'masked': return maskedIn(doc);
      case 'focus': return answer(doc, focusState(doc));
      case 'focusref': return answer(doc, focusRef(doc, arg));
      case 'nav': return answer(doc, navState(doc));
      case 'fill': return answer(doc, fillRef(doc, JSON.parse(decodeURIComponent(arg))));
    }
    throw new Error('buddi engine: unknown body ' + body);
  },
};
