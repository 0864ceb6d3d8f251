// walk.js: one pass over what a read covers, collecting entries (landmarks,
// items with refs, text blocks) in document order.
//
// In 'view' mode a subtree whose box lies outside the viewport, or outside
// the visible box of a container that clips (a scrolled sidebar), is never
// entered, so the cost follows what is on screen, not the page's length.
// Fixed elements are clipped by the viewport alone. Elements on screen that
// a person cannot see (covered, invisible, transparent, zero-sized) are kept
// as entries marked hidden. In 'full' mode everything rendered is read, from
// an optional starting element, until a size budget.
const TEXT_CHARS = { view: 180, full: 1200 };
const CODE_LINES = { view: 8, full: 80 };
const PRIO = { fixed: 0, main: 1, content: 2, chrome: 3, hidden: 4 };
const PINNED_ITEMS = 12; // a fixed part with more items than this is a sidebar, not a control
const TEXT_ROLES = { paragraph: 'paragraph', listitem: 'listitem', cell: 'cell', columnheader: 'cell',
  blockquote: 'blockquote', code: 'code', term: 'term', definition: 'definition', dialog: 'dialog' };

const box = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
const meets = (a, c) => Math.min(a.r, c.r) - Math.max(a.l, c.l) >= 1 && Math.min(a.b, c.b) - Math.max(a.t, c.t) >= 1;
const meet = (a, c) => ({ l: Math.max(a.l, c.l), t: Math.max(a.t, c.t), r: Math.min(a.r, c.r), b: Math.min(a.b, c.b) });
const clipsChildren = (cs) => cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || /paint|strict|content/.test(cs.contain || '');
const blockish = (d) => !d.startsWith('inline') && d !== 'contents' && d !== 'none';

const newWalk = (doc, opts) => {
  const win = doc.defaultView;
  return {
    doc, mode: opts.mode, view: { l: 0, t: 0, r: win.innerWidth, b: win.innerHeight },
    entries: [], visited: new Set(), itemEls: new Set(),
    from: opts.from || null, inclusive: !!opts.inclusive, skipping: !!opts.from,
    stopAt: opts.stopAt || null, stopped: false, budget: opts.budget || Infinity, size: 0, more: false,
    within: opts.within || null, rows: opts.rows || null, rowsOf: opts.rows ? opts.within : null, terms: new Map(),
  };
};

const addEntry = (w, e) => {
  e.idx = w.entries.length;
  w.entries.push(e);
  w.size += 24 + (e.name ? e.name.length : 0);
  return e;
};

// covered reports whether something else is on top of the element at each
// of a few points of its visible part.
const covered = (w, el, b) => {
  const pts = [[(b.l + b.r) / 2, (b.t + b.b) / 2], [b.l + 2, b.t + 2], [b.r - 2, b.b - 2]];
  for (const [x, y] of pts) {
    const h = w.doc.elementFromPoint(x, y);
    if (!h || h === el || contains(el, h) || contains(h, el)) return false;
  }
  return true;
};

// skip decides, while a walk looks for its starting element, what to do
// with el: 'out' (entirely before the start), 'context' (holds the start),
// 'start' (the start itself), or '' once the start is behind.
const skip = (w, el) => {
  if (!w.skipping) return '';
  if (el === w.from) { w.skipping = false; return w.inclusive ? '' : 'start'; }
  if (contains(el, w.from)) return 'context';
  if (before(el, w.from)) return 'out';
  w.skipping = false;
  return '';
};

// LONG is how many children make a list long enough to search rather than
// read: a flat document (a specification whose body holds thousands of
// paragraphs) is entered where the viewport is, not read from the top.
const LONG = 48;

const walkChildren = (w, el, cx) => {
  if (w.mode === 'view' && !el.shadowRoot && el.localName !== 'slot' && el.childElementCount > LONG) {
    return walkLong(w, el, cx);
  }
  eachChild(el, (n) => walkNode(w, n, cx));
};

const walkNode = (w, n, cx) => {
  if (w.stopped || w.more) return;
  if (n.nodeType === 3) {
    if (cx.block && !cx.invisible && !w.skipping) {
      cx.block.parts.push(n.data);
      w.size += n.data.length;
    }
  } else if (isElement(n)) walkEl(w, n, cx);
};

// walkLong enters a long list of children at the first one that reaches
// the visible box, found by bisection on the children's boxes (in normal
// flow they follow each other down the page), and leaves it after a few
// children in a row lie below. Positioned children elsewhere in the list
// are found by escapes.
const walkLong = (w, el, cx) => {
  const kids = el.children;
  const c = cx.clip;
  const first = Math.max(0, firstReaching(kids, c.t) - 2);
  let below = 0;
  for (let i = first; i < kids.length && below < 4; i++) {
    if (w.stopped || w.more) return;
    const k = kids[i];
    const r = rectOf(k);
    if (r.height >= 1 && r.top >= c.b) { below++; continue; }
    below = 0;
    const prev = i === first ? null : kids[i - 1];
    for (let n = prev ? prev.nextSibling : (i === 0 ? el.firstChild : k); n && n !== k; n = n.nextSibling) walkNode(w, n, cx);
    walkEl(w, k, cx);
  }
};

const walkEl = (w, el, cx) => {
  const tag = el.localName;
  if (SKIP.has(tag) && tag !== 'iframe' && tag !== 'frame') return;
  if (w.mode === 'full' && w.size > w.budget) { w.more = true; return; }
  const place = skip(w, el);
  if (place === 'out') return;
  const role = roleOf(el);
  if (w.stopAt && place === '' && w.stopAt(el, role)) { w.stopped = true; return; }
  const cs = style(el);
  if (cs.display === 'none') return;
  const k = { ...cx, depth: (cx.depth || 0) + 1 };
  if (attr(el, 'aria-hidden') === 'true') k.ariaHidden = true;
  let b = null, empty = false, away = false;
  if (w.mode === 'view') {
    const fixed = cs.position === 'fixed';
    const c = fixed ? w.view : cx.clip;
    b = box(rectOf(el));
    empty = b.r - b.l < 1 || b.b - b.t < 1;
    if (!empty && !meets(b, c)) {
      if ((cx.depth || 0) < PEEK_DEPTH) peek(w, el, 2);
      return;
    }
    away = empty && !(b.l <= c.r && b.r >= c.l && b.t <= c.b && b.b >= c.t);
    if (empty && clipsChildren(cs) && tag !== 'iframe' && !isItem(role)) return;
    w.visited.add(el);
    k.clip = clipsChildren(cs) && !empty ? meet(b, c) : c;
    if ((fixed || cs.position === 'sticky') && !cx.fixed) {
      // What stays on screen comes first, unless it is a whole sidebar:
      // then its landmark decides, like any chrome.
      k.fixed = true;
      k.fixedRoot = el;
      k.pinned = el.querySelectorAll(COUNTED).length <= PINNED_ITEMS;
      if (k.pinned) k.prio = PRIO.fixed;
    }
    b = empty ? b : meet(b, c);
  }
  k.invisible = cs.visibility !== 'visible';
  k.transparent = cx.transparent || cs.opacity === '0';
  if (tag === 'iframe' || tag === 'frame') {
    if (!k.invisible && !empty) addEntry(w, { kind: 'frame', el, role: 'iframe', name: attr(el, 'title') || attr(el, 'name'), parent: cx.parent, prio: k.prio, src: el.src || '' });
    return;
  }
  const named = role && (isItem(role) || LANDMARKS.has(role) || TABLE_ROLES.has(role));
  const name = named ? nameOf(el, role) : '';
  if (isLandmark(role, name)) return walkLandmark(w, el, k, role, name, place);
  if (place !== 'start' && isDataTable(el, role)) return walkTable(w, el, k, role, name, place);
  if (isItem(role) && place !== 'start' && place !== 'context') {
    if (!away) addItem(w, el, cx, k, role, name, b, empty, cs.display);
    return;
  }
  if (blockish(cs.display) && place === '' && !away && !cx.cell && !cx.code) {
    const tr = TEXT_ROLES[role] || 'text';
    // A definition belongs to the term before it.
    const term = tag === 'dd' ? w.terms.get(el.previousElementSibling) : undefined;
    k.block = addEntry(w, { kind: 'text', el, role: tr, parts: [], parent: term === undefined ? cx.parent : term, prio: k.prio });
    if (tag === 'dt') w.terms.set(el, k.block.idx);
    else if (term !== undefined) w.terms.set(el, term); // a term's next definition
    k.parent = k.block.idx;
    if (tr === 'code') k.code = true; // its lines are one block, whatever its elements
  } else if (place !== '') {
    k.block = null;
  }
  walkChildren(w, el, k);
};

const walkLandmark = (w, el, k, role, name, place) => {
  const e = addEntry(w, { kind: 'landmark', el, role, name, parent: k.parent, prio: k.prio, context: place !== '', parts: [],
    fixed: !!k.fixed, ariaHidden: !!k.ariaHidden });
  if (!k.pinned) k.prio = role === 'main' ? PRIO.main : CHROME.has(role) ? PRIO.chrome : k.prio;
  k.parent = e.idx;
  k.block = place === '' ? e : null;
  k.landmark = e.idx;
  walkChildren(w, el, k);
};

const addItem = (w, el, cx, k, role, name, b, empty, display) => {
  w.itemEls.add(el);
  let hidden = '';
  if (k.invisible) hidden = 'invisible';
  else if (k.transparent) hidden = 'transparent';
  else if (w.mode === 'view' && empty) hidden = 'zero-size';
  else if (w.mode === 'view' && covered(w, el, b)) hidden = 'covered';
  if (cx.block && !k.invisible && !blockish(display)) cx.block.parts.push(' ' + (el.textContent || '') + ' ');
  const e = addEntry(w, { kind: 'item', el, role, name, parent: cx.parent, hidden, fixed: !!k.fixed, ariaHidden: !!k.ariaHidden,
    prio: hidden ? PRIO.hidden : k.prio, level: role === 'heading' ? levelOf(el) : 0 });
  if (cx.cell) { cx.cell.items.push(e); e.inline = true; }
  itemState(el, role, e);
  if (role === 'listbox') {
    const k2 = { ...k, parent: e.idx, block: null };
    walkChildren(w, el, k2);
  }
};

// itemState adds what a person sees of a control's state.
const itemState = (el, role, e) => {
  const tag = el.localName;
  if (role === 'checkbox' || role === 'radio' || role === 'switch') {
    e.checked = tag === 'input' ? el.checked : attr(el, 'aria-checked') === 'true';
  }
  if (el.disabled || attr(el, 'aria-disabled') === 'true') e.disabled = true;
  if (attr(el, 'aria-expanded')) e.expanded = attr(el, 'aria-expanded') === 'true';
  if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) e.value = ''; // its value is never shown: [checked] is
  else if (tag === 'input' && /^(button|submit|reset|image)$/.test(el.type)) e.value = ''; // its value is its name
  else if (tag === 'input' || tag === 'textarea') e.value = el.value || '';
  else if (tag === 'select') e.value = Array.from(el.selectedOptions || []).map((o) => o.label).join(', ');
  else if (el.isContentEditable) e.value = norm(el.textContent || '');
  e.value = shownValue(el, e.value || '');
  if (e.value) e.value = clip(norm(e.value), 100);
};

// PEEK_DEPTH is how deep in the document a subtree off screen is still
// looked into for fixed children: a page's own fixed parts (arrows, chat
// buttons, banners) sit near its top, often inside a wrapper that ends
// below the fold.
const PEEK_DEPTH = 4;
const PEEK_CHILDREN = 16;

const peek = (w, el, levels) => {
  if (el.childElementCount > PEEK_CHILDREN) return;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (SKIP.has(c.localName)) continue;
    if (style(c).position === 'fixed') walkEl(w, c, { parent: -1, clip: w.view, block: null, prio: PRIO.content, depth: PEEK_DEPTH });
    else if (levels > 1) peek(w, c, levels - 1);
  }
};

// escapes finds what is on screen outside every subtree the walk entered:
// positioned elements whose ancestors lie elsewhere. A coarse grid of hit
// tests finds them; each is walked as a top-level entry.
const escapes = (w) => {
  const { r: vw, b: vh } = w.view;
  const pts = [[12, 12], [vw - 12, 12], [12, vh - 12], [vw - 12, vh - 12]];
  for (let i = 0; i < 5; i++) for (let j = 0; j < 3; j++) pts.push([(i + 0.5) * vw / 5, (j + 0.5) * vh / 3]);
  for (const [x, y] of pts) {
    {
      const h = w.doc.elementFromPoint(x, y);
      if (!h || w.visited.has(h)) continue;
      let u = h;
      for (let p = parentOf(u); p && !w.visited.has(p); p = parentOf(u)) {
        if (!meets(box(rectOf(p)), w.view)) break;
        u = p;
      }
      const p = parentOf(u);
      if (!p || w.itemEls.has(p) || w.visited.has(u)) continue;
      walkEl(w, u, { parent: -1, clip: w.view, block: null, prio: PRIO.fixed, fixed: true, pinned: true, landmark: -1 });
    }
  }
};

const walk = (doc, root, opts) => {
  const w = newWalk(doc, opts);
  const cx = { parent: -1, clip: w.view, block: null, prio: PRIO.content, fixed: false, landmark: -1 };
  walkEl(w, root, cx);
  if (w.mode === 'view') escapes(w);
  for (const e of w.entries) {
    if (e.role === 'code' && e.parts) e.lines = codeLines(e.parts.join(''), CODE_LINES[w.mode]);
    if (e.parts) e.text = clip(norm(e.parts.join('')), TEXT_CHARS[w.mode]);
    if (e.cells) for (const c of e.cells) c.text = clip(norm(c.parts.join('')), CELL_CHARS[w.mode]);
  }
  return w;
};

// codeLines is a code block's text as its lines, without the blank ones at
// either end or the indent they all share, at most max of them (and a line
// that says how many more).
const codeLines = (text, max) => {
  const lines = text.split('\n').map((l) => clip(l.replace(/\s+$/, '').replace(/\t/g, '    '), 160));
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  if (indent > 0 && indent < Infinity) for (let i = 0; i < lines.length; i++) lines[i] = lines[i].slice(indent);
  if (lines.length > max) return lines.slice(0, max).concat(['(' + (lines.length - max) + ' more lines)']);
  return lines;
};
