// find.js: search the whole document for elements by text, role or name,
// without rendering it, and say where each match is.
const FIND_MAX = 20;
const BLOCK_TAGS = new Set(['p', 'li', 'dd', 'dt', 'td', 'th', 'pre', 'blockquote', 'figcaption', 'caption',
  'label', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article', 'main', 'body']);

const matcher = (want, exact) => {
  if (!want) return () => true;
  if (exact) return (s) => s === want;
  const lw = want.toLowerCase();
  return (s) => s.toLowerCase().includes(lw);
};

// holderOf is the element a text match belongs to: the nearest item (a link
// whose words matched), else the nearest block of text.
const holderOf = (node) => {
  let block = null;
  for (let e = node.parentElement; e; e = parentOf(e)) {
    if (isItem(roleOf(e))) return e;
    if (!block && BLOCK_TAGS.has(e.localName)) block = e;
    if (e.localName === 'body') break;
  }
  return block;
};

const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });

// pathOf names where el is: its landmarks and the headings it falls under
// within its nearest landmark (a sidebar's link is not under the article's
// headings).
const pathOf = (el, heads) => {
  const parts = [];
  let near = null;
  for (let e = parentOf(el); e; e = parentOf(e)) {
    const role = roleOf(e);
    if (LANDMARKS.has(role)) {
      const name = nameOf(e, role);
      if (isLandmark(role, name)) {
        parts.unshift(role + (name ? ' ' + quote(clip(name, 40)) : ''));
        if (!near) near = e;
      }
    }
  }
  let lo = 0, hi = heads.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (heads[mid] === el || before(heads[mid], el)) lo = mid + 1; else hi = mid; }
  const chain = [];
  let level = 7;
  for (let i = lo - 1; i >= 0 && level > 1; i--) {
    const h = heads[i];
    if (h === el || (near && !near.contains(h))) continue;
    const l = levelOf(h);
    if (l < level) { chain.unshift('heading ' + quote(clip(contentText(h), 50))); level = l; }
  }
  return parts.concat(chain).join(' › ');
};

const candidates = (doc, q, nameOk, textOk) => {
  const found = new Set();
  const add = (el) => { if (el) found.add(el); };
  const roots = rootsOf(doc);
  const each = (sel, fn) => { for (const r of roots) for (const el of r.querySelectorAll(sel)) fn(el); };
  if (q.role) {
    each(selectorFor(q.role), (el) => {
      if (roleOf(el) !== q.role || !nameOk(nameOf(el, q.role))) return;
      if (q.text && !textOk(contentText(el))) return;
      add(el);
    });
    return found;
  }
  if (q.name) {
    const all = LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR + ',' + HEADING_SELECTOR + ',img[alt],[role=img],[role=tab],[role=menuitem]';
    each(all, (el) => { if (nameOk(nameOf(el, roleOf(el)))) add(el); });
  }
  if (q.text) {
    for (const r of roots) {
      const top = r === doc ? doc.body || doc.documentElement : r;
      const tw = doc.createTreeWalker(top, NodeFilter.SHOW_TEXT);
      for (let n = tw.nextNode(); n; n = tw.nextNode()) {
        if (textOk(norm(n.data)) || (!q.exact && n.data.toLowerCase().includes(q.text.toLowerCase()))) {
          const h = holderOf(n);
          if (h && !SKIP.has(h.localName)) add(h);
        }
      }
    }
    each('[aria-label],[title],img[alt],input[type=submit],input[type=button]', (el) => {
      if (isItem(roleOf(el)) && textOk(nameOf(el, roleOf(el)))) add(el);
    });
  }
  return found;
};

// find answers a query with up to max matches, visible ones first.
const find = (doc, q) => {
  const nameOk = matcher(q.name ? norm(q.name) : '', q.exact);
  const textOk = matcher(q.text ? norm(q.text) : '', q.exact);
  const all = Array.from(candidates(doc, q, nameOk, textOk));
  all.sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1));
  const heads = Array.from(doc.querySelectorAll(HEADING_SELECTOR));
  const vh = doc.defaultView.innerHeight;
  // Matches a person could see come first; ones not rendered (a menu for
  // small screens, a collapsed section) are listed only when nothing else
  // matched, and counted otherwise.
  const seen = all.filter(visible);
  const unseen = all.length - seen.length;
  const listed = seen.length ? seen : all;
  const lines = [], refs = [];
  for (const el of listed.slice(0, q.max || FIND_MAX)) {
    const role = roleOf(el);
    const item = isItem(role);
    const e = { kind: item ? 'item' : 'text', el, role: item ? role : (TEXT_ROLES[role] || 'text'),
      name: item ? nameOf(el, role) : '', level: role === 'heading' ? levelOf(el) : 0 };
    if (!item) e.text = clip(contentText(el), 160);
    else itemState(el, role, e);
    if (!visible(el)) e.hidden = 'not rendered';
    const pos = style(el).position;
    e.fixed = pos === 'fixed' || pos === 'sticky';
    const ref = refFor(el);
    refs.push(el);
    const at = e.hidden ? '' : where(el, vh) === 'view' ? ' (in view)' : ' (' + where(el, vh) + ' the viewport)';
    const path = pathOf(el, heads);
    lines.push(lineOf({ ...e, text: '', value: '' }, 0, ref) + at + (path ? ' in: ' + path : '') + (e.text ? ': ' + e.text : ''));
  }
  return { lines, refs, total: all.length, unseen: seen.length ? unseen : 0 };
};
