// sections.js: sections as the document makes them. A heading starts one;
// the next heading of its level or above in the same main content ends it.
// The headings of notes, asides and admonitions (a box titled "Note" or
// "Warning") belong to the section that holds them: they end none and
// name none.
const NOTE_CLASS = /(?:^|[\s_-])(?:admonition|callout|notecard|note|notice|warning|caution|tip|hint|important|alert)(?:$|[\s_-])/i;
const NOTE_ROLES = new Set(['note', 'complementary', 'navigation', 'alert', 'dialog', 'alertdialog', 'status', 'search']);
const NOTE_TAGS = new Set(['aside', 'nav', 'details', 'blockquote', 'figure', 'dialog']);

// noteOf is the nearest note, aside or admonition that holds el below
// scope, or null.
const noteOf = (el, scope) => {
  for (let e = parentOf(el); e && e !== scope; e = parentOf(e)) {
    if (NOTE_TAGS.has(e.localName)) return e;
    const r = attr(e, 'role');
    if (r && NOTE_ROLES.has(r)) return e;
    const c = e.getAttribute('class');
    if (c && NOTE_CLASS.test(c)) return e;
  }
  return null;
};

// scopeOf is the main content that holds el: its nearest article or main,
// else the body.
const scopeOf = (el) => {
  for (let e = parentOf(el); e; e = parentOf(e)) {
    if (e.localName === 'article' || e.localName === 'main') return e;
    const r = attr(e, 'role');
    if (r === 'main' || r === 'article') return e;
  }
  return el.ownerDocument.body || el.ownerDocument.documentElement;
};

// isSection reports whether heading h starts a section of scope.
const isSection = (h, scope) => contains(scope, h) && !noteOf(h, scope);

// sectionEnd is what ends the section heading h starts: a test for the
// walk, and the heading that ends it (null at the end of its scope).
const sectionEnd = (doc, h) => {
  const level = levelOf(h);
  const scope = scopeOf(h);
  const ends = (x) => x !== h && levelOf(x) <= level && isSection(x, scope);
  const heads = Array.from(doc.querySelectorAll(HEADING_SELECTOR));
  let end = null;
  for (const x of heads) {
    if (before(h, x) && !contains(h, x) && roleOf(x) === 'heading' && ends(x)) { end = x; break; }
  }
  // A section ends where its scope does, too.
  const after = end || nextOutside(scope);
  return { end: after, stopAt: (x, role) => x === after || (role === 'heading' && ends(x)) };
};

// nextOutside is the first element after el's subtree, or null.
const nextOutside = (el) => {
  for (let e = el; e; e = parentOf(e)) {
    if (e.nextElementSibling) return e.nextElementSibling;
    if (e.localName === 'body') return null;
  }
  return null;
};

// sectionPath is the headings el falls under, outermost first, within its
// own main content (or the landmark given) and outside notes: at most max
// of them.
const sectionPath = (el, heads, max, within) => {
  const scope = within || scopeOf(el);
  let lo = 0, hi = heads.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (heads[mid] === el || before(heads[mid], el)) lo = mid + 1; else hi = mid; }
  const chain = [];
  let level = roleOf(el) === 'heading' ? levelOf(el) : 7;
  for (let i = lo - 1; i >= 0 && level > 1; i--) {
    const h = heads[i];
    if (h === el || contains(h, el)) continue;
    if (!isSection(h, scope)) continue;
    const l = levelOf(h);
    if (l < level) { chain.unshift(h); level = l; }
  }
  return chain.slice(-max);
};
