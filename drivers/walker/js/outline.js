// outline.js: where things are beyond the viewport, without reading them:
// landmarks and headings above and below, each with how many links, fields
// and buttons it holds and a ref to read it with `within`.
const OUTLINE_ABOVE = 3;
const OUTLINE_BELOW = 12;
const OUTLINE_HEADINGS = 24;

const countsText = (c, shown) => {
  const parts = [];
  for (const [k, one] of [['links', 'link'], ['fields', 'field'], ['buttons', 'button']]) {
    if (c[k]) parts.push(c[k] + ' ' + (c[k] === 1 ? one : k));
  }
  let s = parts.length ? parts.join(', ') : 'text only';
  if (shown) s += ', ' + shown + ' shown above';
  return s;
};

const where = (el, vh) => {
  const r = rectOf(el);
  if (r.bottom <= 0) return 'above';
  if (r.top >= vh) return 'below';
  return 'view';
};

// classOf sorts an element the survey found: 'h' heading, 'm' possible
// landmark, or the kind of item it counts as. Tags decide without selector
// matching where they can.
const classOf = (el) => {
  if (el.hasAttribute('role')) {
    if (el.matches(HEADING_SELECTOR)) return 'h';
    if (el.matches(LANDMARK_SELECTOR)) return 'm';
    return kindOfCounted(el);
  }
  switch (el.localName) {
    case 'a': case 'area': return 'links';
    case 'button': case 'summary': return 'buttons';
    case 'select': case 'textarea': return 'fields';
    case 'input': return el.matches(BUTTON_SELECTOR) ? 'buttons' : 'fields';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'h';
    case 'nav': case 'main': case 'aside': case 'header': case 'footer': case 'form': case 'search': case 'section': return 'm';
  }
  return kindOfCounted(el);
};

// survey reads the document once, in order, counting what each heading's
// section and each landmark holds. It is kept per document until the DOM
// changes.
let surveyed = null;
const survey = (doc) => {
  if (surveyed && surveyed.doc === doc && !surveyed.dirty) return surveyed;
  const sel = HEADING_SELECTOR + ',' + LANDMARK_SELECTOR + ',' + LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR;
  const heads = [], marks = [], hStack = [], mStack = [];
  let hiddenUnder = null;
  for (const el of doc.querySelectorAll(sel)) {
    if (hiddenUnder && hiddenUnder.contains(el)) continue;
    hiddenUnder = null;
    while (mStack.length && !mStack[mStack.length - 1].el.contains(el)) mStack.pop();
    const k = classOf(el);
    if (k === 'h') {
      if (!el.checkVisibility()) { hiddenUnder = el; continue; }
      if (noteOf(el, scopeOf(el))) continue; // a note's title: its items count in the section around it
      const level = levelOf(el);
      while (hStack.length && hStack[hStack.length - 1].level >= level) hStack.pop();
      const h = { el, level, c: { links: 0, fields: 0, buttons: 0 } };
      heads.push(h);
      hStack.push(h);
      continue;
    }
    if (k === 'm') {
      const role = roleOf(el);
      if (LANDMARKS.has(role)) {
        if (!el.checkVisibility()) { hiddenUnder = el; continue; }
        const name = nameOf(el, role);
        if (isLandmark(role, name)) {
          const m = { el, role, name, c: { links: 0, fields: 0, buttons: 0 } };
          marks.push(m);
          mStack.push(m);
        }
      }
      if (!el.matches(LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR)) continue;
    }
    const kind = k === 'm' ? kindOfCounted(el) : k;
    for (const h of hStack) h.c[kind]++;
    for (const m of mStack) m.c[kind]++;
  }
  if (surveyed && surveyed.observer) surveyed.observer.disconnect();
  surveyed = { doc, heads, marks, dirty: false };
  const s = surveyed;
  s.observer = new MutationObserver(() => { s.dirty = true; s.observer.disconnect(); });
  s.observer.observe(doc, { subtree: true, childList: true, attributes: true,
    attributeFilter: ['hidden', 'href', 'role', 'aria-hidden', 'aria-label', 'class', 'style', 'open', 'type'] });
  return surveyed;
};

// outline renders the survey around what the view showed (shownEls: the
// elements of the items in the tree), within budget characters.
const outline = (doc, shownEls, budget) => {
  const vh = doc.defaultView.innerHeight;
  const { heads, marks } = survey(doc);
  const lines = [];
  const refs = [];
  const line = (role, name, level, el, text) => {
    const ref = refFor(el);
    refs.push(el);
    return '  - ' + role + (name ? ' ' + quote(clip(name, 80)) : '') + (level ? ' [level=' + level + ']' : '') + ' [ref=' + ref + ']: ' + text;
  };
  const partly = [];
  for (const m of marks) {
    if (where(m.el, vh) !== 'view' || m.role === 'main') continue;
    let shown = 0;
    for (const el of shownEls) if (m.el.contains(el)) shown++;
    const total = m.c.links + m.c.fields + m.c.buttons;
    if (total > shown) partly.push(line(m.role, m.name, 0, m.el, countsText(m.c, shown)));
  }
  const rows = [];
  for (const h of heads) {
    const at = where(h.el, vh);
    if (at !== 'view') rows.push({ at, el: h.el, level: h.level, h });
  }
  for (const m of marks) {
    const at = where(m.el, vh);
    if (at !== 'view') rows.push({ at, el: m.el, level: 0, m });
  }
  rows.sort((a, b) => (a.el === b.el ? 0 : before(a.el, b.el) ? -1 : 1));
  const levels = heads.map((h) => h.level);
  let maxLevel = levels.length ? Math.max(...levels) : 0;
  const minLevel = levels.length ? Math.min(...levels) : 0;
  const count = (L) => rows.filter((r) => r.level <= L).length;
  while (maxLevel > minLevel && count(maxLevel) > OUTLINE_HEADINGS) maxLevel--;
  const kept = rows.filter((r) => r.level <= maxLevel);
  const above = kept.filter((r) => r.at === 'above');
  const below = kept.filter((r) => r.at === 'below');
  const rowLine = (r) => r.h
    ? line('heading', nameOf(r.el, 'heading'), r.level, r.el, countsText(r.h.c, 0))
    : line(r.m.role, r.m.name, 0, r.el, countsText(r.m.c, 0));
  const out = [];
  const deeper = rows.length - kept.length;
  if (partly.length) out.push('- in view, partly shown:', ...partly);
  if (above.length) {
    out.push('- above the viewport:');
    if (above.length > OUTLINE_ABOVE) out.push('  - (' + (above.length - OUTLINE_ABOVE) + ' more before these)');
    out.push(...above.slice(-OUTLINE_ABOVE).map(rowLine));
  }
  if (below.length) {
    out.push('- below the viewport:');
    out.push(...below.slice(0, OUTLINE_BELOW).map(rowLine));
    if (below.length > OUTLINE_BELOW) out.push('  - (' + (below.length - OUTLINE_BELOW) + ' more after these)');
  }
  if (deeper > 0) out.push('- (' + deeper + ' smaller headings not listed: use find)');
  let size = 0;
  for (const l of out) {
    if (size + l.length + 1 > budget) { lines.push('- (outline cut here: use find)'); break; }
    lines.push(l);
    size += l.length + 1;
  }
  return { lines, refs };
};
