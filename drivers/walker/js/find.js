// find.js: search the whole document for text, a role or a name, without
// rendering it, and answer each match with what it is and what is around
// it: an item with its ref; a table's row under its column headers; or the
// sentence that holds the words, with the ref of the block that holds it.
// Each says where it is: above, in or below the viewport, its landmark
// when that is not the main content, and the headings of its section.
// Matches are ranked, the best few listed, the rest counted.
const FIND_MAX = 5;
const CONTEXT_CHARS = 220;
const BLOCK_TAGS = new Set(['p', 'li', 'dd', 'dt', 'td', 'th', 'pre', 'blockquote', 'figcaption', 'caption',
  'label', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article', 'main', 'body']);
// LEAF_BLOCKS are the blocks searched as a whole, for words that cross
// the elements inside them ("4.6. <code>match</code> Statements").
const LEAF_BLOCKS = 'p,li,dt,dd,td,th,pre,h1,h2,h3,h4,h5,h6,caption,figcaption,summary,label,a[href]';
const CELL_TAGS = new Set(['td', 'th']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

const matcher = (want, exact) => {
  if (!want) return () => true;
  if (exact) return (s) => s === want;
  const lw = want.toLowerCase();
  return (s) => s.toLowerCase().includes(lw);
};

// cellRow is the row of a data table that cell e belongs to, or null.
const cellRow = (e) => {
  if (!CELL_TAGS.has(e.localName) && !CELL_ROLES.has(attr(e, 'role'))) return null;
  const t = e.closest('table,[role=table],[role=grid],[role=treegrid]');
  if (!t || !isDataTable(t, roleOf(t))) return null;
  return e.closest('tr,[role=row]');
};

// holderOf is what a text match belongs to: the row of a data table when
// it is in a cell, else the nearest item (a link whose words matched),
// else the nearest block of text.
const holderOf = (node) => {
  let item = null, block = null;
  for (let e = isElement(node) ? node : node.parentElement; e; e = parentOf(e)) {
    const row = cellRow(e);
    if (row) return { el: row, kind: 'row', cell: e };
    if (!item && !block && isItem(roleOf(e))) item = e;
    if (!item && !block && BLOCK_TAGS.has(e.localName)) block = e;
    if (e.localName === 'body') break;
  }
  if (item) return { el: item, kind: 'item' };
  return block ? { el: block, kind: 'text' } : null;
};

const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });

// chromeOf is the nearest landmark around el that is not main content,
// or null.
const chromeOf = (el) => {
  for (let e = parentOf(el); e; e = parentOf(e)) {
    const role = roleOf(e);
    if (role === 'main') return null;
    if (LANDMARKS.has(role) && role !== 'form' && role !== 'region') {
      const name = nameOf(e, role);
      if (isLandmark(role, name)) return { el: e, role, name };
    }
  }
  return null;
};

// textCandidates finds the holders of text matches: each text node that
// holds the words, then, for words that may cross the elements of a
// block, each leaf block around a text node that holds the first of them.
const textCandidates = (doc, roots, q, textOk, add) => {
  const want = norm(q.text).toLowerCase();
  const spaced = !q.exact && /\s/.test(want);
  const first = want.split(' ')[0];
  const holds = q.exact ? (s) => textOk(norm(s)) : (s) => s.toLowerCase().includes(want);
  const blocks = new Set();
  for (const r of roots) {
    const top = r === doc ? doc.body || doc.documentElement : r;
    if (!top) continue;
    const tw = doc.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const d = n.data;
      if (d.length < first.length) continue;
      if (holds(d)) {
        const h = holderOf(n);
        if (h && !SKIP.has(h.el.localName)) add(h, n);
      } else if (spaced && d.toLowerCase().includes(first)) {
        const b = n.parentElement && n.parentElement.closest(LEAF_BLOCKS);
        if (b) blocks.add(b);
      }
    }
  }
  for (const b of blocks) {
    if (!norm(b.textContent).toLowerCase().includes(want)) continue;
    const h = holderOf(b);
    if (h) add(h, null);
  }
};

const candidates = (doc, q, nameOk, textOk) => {
  const found = new Map();
  const add = (h, node) => {
    const key = h.el;
    if (!found.has(key)) found.set(key, { ...h, node });
  };
  const roots = rootsOf(doc);
  const each = (sel, fn) => { for (const r of roots) for (const el of r.querySelectorAll(sel)) fn(el); };
  if (q.role) {
    each(selectorFor(q.role), (el) => {
      if (roleOf(el) !== q.role || !nameOk(nameOf(el, q.role))) return;
      if (q.text && !textOk(contentText(el))) return;
      add({ el, kind: 'item' }, null);
    });
    return Array.from(found.values());
  }
  if (q.name) {
    const all = LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR + ',' + HEADING_SELECTOR + ',img[alt],[role=img],[role=tab],[role=menuitem]';
    each(all, (el) => { if (nameOk(nameOf(el, roleOf(el)))) add({ el, kind: 'item' }, null); });
  }
  if (q.text) {
    textCandidates(doc, roots, q, textOk, add);
    each('[aria-label],[title],img[alt],input[type=submit],input[type=button]', (el) => {
      if (isItem(roleOf(el)) && textOk(nameOf(el, roleOf(el)))) add({ el, kind: 'item' }, null);
    });
  }
  // A block whose match is also a match inside it adds nothing: the item,
  // the row or the smaller block says more. In document order, what a
  // block holds follows it at once.
  const order = Array.from(found.values()).sort((a, b) => (a.el === b.el ? 0 : before(a.el, b.el) ? -1 : 1));
  return order.filter((m, i) => m.kind !== 'text' || i + 1 >= order.length || !contains(m.el, order[i + 1].el));
};

// sentenceAround is the sentence of text that holds words, at most
// CONTEXT_CHARS long around them; the start of text when it does not.
const sentenceAround = (text, words) => {
  const i = words ? text.toLowerCase().indexOf(words.toLowerCase()) : -1;
  if (i < 0) return firstWords(text, CONTEXT_CHARS);
  const head = /^[\s\S]*[.!?:;]\s/.exec(text.slice(0, i));
  let a = head ? head[0].length : 0;
  const tail = /[.!?](?=\s|$)/.exec(text.slice(i + words.length));
  let b = tail ? i + words.length + tail.index + 1 : text.length;
  if (b - a > CONTEXT_CHARS) {
    a = Math.max(a, Math.min(i - 60, b - CONTEXT_CHARS));
    b = Math.min(b, a + CONTEXT_CHARS);
  }
  return (a > 0 ? '…' : '') + text.slice(a, b).trim() + (b < text.length ? '…' : '');
};

// ownText is what a match's words are checked against when it is ranked.
const ownText = (m) => {
  if (m.kind === 'item') return nameOf(m.el, roleOf(m.el));
  if (m.kind === 'row') return contentText(m.cell);
  return m.node ? norm(m.node.data) : contentText(m.el);
};

// wordsOf is a test for want as whole words.
const wordsOf = (want) => new RegExp('(?:^|[^\\p{L}\\p{N}_])' + want.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&') +
  '(?:$|[^\\p{L}\\p{N}_])', 'u');

// rank scores a match: words that are all of an item's name or a cell
// first, then words that begin one, then whole words; headings and rows
// above text; the main content above a page's chrome.
const rank = (m, want, words) => {
  const own = ownText(m);
  const lo = own.toLowerCase(), w = want.toLowerCase();
  let s = 0;
  if (lo === w) s += 8;
  else if (lo.startsWith(w)) s += 4;
  if (w && words.test(lo)) s += 2;
  if (want && own.includes(want)) s += 1;
  if (m.kind === 'row') s += 1;
  if (m.kind === 'item' && roleOf(m.el) === 'heading') s += 2;
  m.chrome = chromeOf(m.el);
  if (m.chrome) s -= 3;
  return s;
};

// matchLine writes one match: what it is, where, and what is around it.
const matchLine = (m, want, heads, vh, refOf) => {
  const el = m.el;
  const at = ' (' + where(el, vh).replace('view', 'in view') + ')';
  const path = sectionPath(el, heads, 2, m.chrome && m.chrome.el);
  let place = m.chrome ? m.chrome.role + (m.chrome.name ? ' ' + quote(clip(m.chrome.name, 40)) : '') : '';
  if (path.length) {
    const names = path.map((h) => quote(clip(contentText(h), 50)));
    names[names.length - 1] += ' [ref=' + refOf({ el: path[path.length - 1] }) + ']';
    place += (place ? ' › ' : '') + names.join(' › ');
  }
  const where2 = at + (place ? ' in: ' + place : '');
  if (m.kind === 'row') {
    const t = el.closest('table,[role=table],[role=grid],[role=treegrid]');
    const model = modelOf(t);
    const row = { cells: cellsOf(el).map((c) => ({ text: clip(contentText(c), CELL_CHARS.find), span: c.colSpan || 1,
      items: Array.from(c.querySelectorAll(LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR))
        .filter(visible).map((x) => ({ el: x, role: roleOf(x), name: nameOf(x, roleOf(x)) })) })) };
    const n = rowNumber(model, el);
    return '- ' + (n ? 'row ' + n : 'header row') + ' of table' + (t ? ' [ref=' + refOf({ el: t }) + ']' : '') + where2 + ': ' +
      rowText(row, model.columns, CELL_CHARS.find, refOf, true);
  }
  const role = roleOf(el);
  if (m.kind === 'item') {
    const e = { kind: 'item', el, role, name: nameOf(el, role), level: role === 'heading' ? levelOf(el) : 0 };
    itemState(el, role, e);
    const pos = style(el).position;
    e.fixed = pos === 'fixed' || pos === 'sticky';
    if (!visible(el)) e.hidden = 'not rendered';
    return lineOf({ ...e, text: '', value: '' }, 0, refOf(e)) + (e.hidden ? '' : at) + (place ? ' in: ' + place : '');
  }
  let text = contentText(el, null, 6000);
  if (want && m.node && !text.toLowerCase().includes(want.toLowerCase())) text = norm(m.node.data);
  text = sentenceAround(text, want);
  return '- ' + (TEXT_ROLES[role] || 'text') + ' [ref=' + refOf({ el }) + ']' + where2 + ': ' + text;
};

// find answers a query with up to max matches, best first. Matches a
// person could see come first; ones not rendered (a menu for small
// screens, a collapsed section) are listed only when nothing else
// matched, and counted otherwise.
const find = (doc, q) => {
  const nameOk = matcher(q.name ? norm(q.name) : '', q.exact);
  const textOk = matcher(q.text ? norm(q.text) : '', q.exact);
  const t0 = performance.now();
  const all = candidates(doc, q, nameOk, textOk);
  const t1 = performance.now();
  const seenAll = all.filter((m) => visible(m.el));
  const unseen = all.length - seenAll.length;
  const listed = seenAll.length ? seenAll : all;
  const want = norm(q.text || q.name || '');
  const words = wordsOf(want);
  for (const m of listed) m.score = rank(m, want, words);
  listed.sort((a, b) => b.score - a.score || (a.el === b.el ? 0 : before(a.el, b.el) ? -1 : 1));
  const heads = Array.from(doc.querySelectorAll(HEADING_SELECTOR));
  const vh = doc.defaultView.innerHeight;
  const lines = [], refs = [];
  const refOf = (e) => { refs.push(e.el); return refFor(e.el); };
  const t2 = performance.now();
  for (const m of listed.slice(0, q.max || FIND_MAX)) lines.push(matchLine(m, q.text ? want : '', heads, vh, refOf));
  return { lines, refs, total: all.length, unseen: seenAll.length ? unseen : 0,
    ms: { render: t2 - t1, outline: performance.now() - t2, entries: all.length, visited: t1 - t0 } };
};
