// render.js: entries to tree lines, within a budget.
const quote = (s) => '"' + s.replace(/["\\]/g, '\\$&').replace(/\n/g, ' ') + '"';

// firstWords is s cut to at most n characters at a word's end.
const firstWords = (s, n) => {
  if (s.length <= n) return s;
  if (n <= 0) return '';
  const cut = s.slice(0, n);
  const sp = cut.lastIndexOf(' ');
  return (sp > n / 2 ? cut.slice(0, sp) : cut).trimEnd() + '…';
};

const isContainer = (e) => e.kind === 'landmark' || e.kind === 'table';

const lineOf = (e, depth, ref, inherited, chars) => {
  let s = '  '.repeat(depth) + '- ' + e.role;
  if (e.name) s += ' ' + quote(e.name);
  if (e.level) s += ' [level=' + e.level + ']';
  if (e.checked) s += ' [checked]';
  if (e.disabled) s += ' [disabled]';
  if (e.expanded !== undefined) s += e.expanded ? ' [expanded]' : ' [collapsed]';
  if (ref) s += ' [ref=' + ref + ']';
  if (e.fixed && !(inherited && inherited.fixed) && e.kind !== 'text') s += ' [fixed]';
  if (e.hidden) s += ' [hidden=' + e.hidden + ']';
  else if (e.ariaHidden && !(inherited && inherited.ariaHidden)) s += ' [aria-hidden]';
  if (e.context) s += ' (continued)';
  if (e.kind === 'landmark') return s + ':';
  if (e.kind === 'table') return s + (e.summary ? ': ' + e.summary : '') + ':';
  if (e.lines) return s + ':';
  const text = e.value || (chars === undefined ? e.text : firstWords(e.text || '', chars));
  if (text) s += ': ' + text;
  return s;
};

// keepText drops text entries that say nothing the lines around them do
// not: empty ones, and blocks whose text is only the names of the items
// in them, with punctuation between (a row of links).
const keepText = (w) => {
  const names = new Map();
  for (const e of w.entries) {
    if (e.kind !== 'item' || e.parent < 0 || e.inline) continue;
    const p = w.entries[e.parent];
    if (p.kind !== 'text') continue;
    if (!names.has(p.idx)) names.set(p.idx, []);
    names.get(p.idx).push(e.name);
  }
  for (const e of w.entries) {
    if (e.kind !== 'text') continue;
    e.drop = !e.text && !(e.lines && e.lines.length);
    const own = names.get(e.idx);
    if (e.drop || !own || e.lines) continue;
    let rest = e.text;
    for (const n of own) if (n) rest = rest.replace(norm(n), ' ');
    if (!/[\p{L}\p{N}]/u.test(rest)) e.drop = true;
  }
};

// shownParent is the nearest ancestor entry that is rendered, or -1.
const shownParent = (w, e, shown) => {
  let p = e.parent;
  while (p >= 0 && !shown.has(p)) p = w.entries[p].parent;
  return p;
};

const depthOf = (w, e, shown, depths) => {
  const p = shownParent(w, e, shown);
  return p < 0 ? 0 : depths.get(p) + 1;
};

// leavesOf is what a read may show or leave out: everything but the
// containers (shown when something in them is) and the items written in
// a table's rows.
const leavesOf = (w) => w.entries.filter((e) => !isContainer(e) && !e.drop && !e.inline);

// withContainers adds to shown the containers that hold what it shows,
// and the ones a continued read starts inside.
const withContainers = (w, shown) => {
  for (const idx of Array.from(shown)) {
    for (let p = w.entries[idx].parent; p >= 0; p = w.entries[p].parent) {
      if (isContainer(w.entries[p])) shown.add(p);
    }
  }
  for (const e of w.entries) if (isContainer(e) && e.context) shown.add(e.idx);
  return shown;
};

// choose picks the entries a full read shows: in document order, until
// budget. It returns the entries left out.
const choose = (w, budget) => {
  keepText(w);
  const shown = new Set();
  const opened = new Set();
  let used = 0;
  const left = [];
  let full = false;
  for (const e of leavesOf(w)) {
    let cost = lineOf(e, 2, 'e00000').length + 1 + (e.cells ? rowCost(e) : 0) + (e.lines ? e.lines.join('\n').length + 1 : 0);
    const opens = [];
    for (let p = e.parent; p >= 0; p = w.entries[p].parent) {
      const pe = w.entries[p];
      if (isContainer(pe) && !opened.has(p)) { cost += lineOf(pe, 1, 'e00000').length + 1; opens.push(p); }
    }
    if (full || used + cost > budget) { full = true; left.push(e); continue; }
    used += cost;
    shown.add(e.idx);
    for (const p of opens) opened.add(p);
  }
  return { shown: withContainers(w, shown), left };
};

const rowCost = (e) => e.cells.reduce((n, c) => n + c.text.length + 3 + c.items.reduce((m, it) => m + it.name.length + 20, 0), 0);

// SQUEEZE is how a view makes room, step after step, until it fits its
// budget: all text as read; then the text of the page's chrome (a
// sidebar's words beside its links) left out, and the rest cut to its
// first words, as many as there is room for; then items a person cannot
// see left out too; then no text at all. Items a person can see stay at
// every step.
const SQUEEZE = [
  { text: undefined, cells: CELL_CHARS.view, chrome: true, hidden: true },
  { text: 32, cells: 48, chrome: false, hidden: true },
  { text: 24, cells: 24, chrome: false, hidden: false },
  { text: 0, cells: 12, chrome: false, hidden: false },
];

const seen = (e) => !e.hidden;

// keptAt says whether a view shows e at squeeze step s.
const keptAt = (e, s) => {
  if (e.kind === 'item') return seen(e) || s.hidden;
  if (e.kind === 'frame') return true;
  if (e.kind === 'row') return e.cells.some((c) => c.items.some(seen)) || s.text !== 0;
  return s.text !== 0 && (s.chrome || e.prio !== PRIO.chrome);
};

// roomFor is how many characters of each text the shown texts can have
// and fit in room, at least least (0 when even that does not fit): the
// long ones are cut to the same length, the short ones kept whole.
const roomFor = (lens, room, least) => {
  let lo = least, hi = Math.max(least, ...lens, 0);
  const cost = (c) => lens.reduce((n, l) => n + Math.min(l, c) + 3, 0);
  if (cost(lo) > room) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cost(mid) <= room) lo = mid; else hi = mid - 1;
  }
  return lo;
};

// chooseView picks what a view shows: every item a person can see, with
// as much text as the budget leaves room for (see SQUEEZE). It returns the
// rendering, and the entries left out.
const chooseView = (w, budget, notesFor) => {
  keepText(w);
  const leaves = leavesOf(w);
  let best = null;
  const size = (r) => r.lines.reduce((n, l) => n + l.length + 1, 0);
  for (const s of SQUEEZE) {
    const shown = new Set();
    const left = [];
    for (const e of leaves) (keptAt(e, s) ? shown.add(e.idx) : left.push(e));
    withContainers(w, shown);
    let step = s;
    if (s.text) {
      // The lines without their text, then the longest cut that fits.
      const bare = size(render(w, shown, notesFor(new Set(shown), left), { ...s, text: 0 }));
      const lens = [];
      for (const e of w.entries) if (shown.has(e.idx) && e.text && !e.value && (e.kind === 'text' || e.kind === 'landmark')) lens.push(e.text.length);
      const c = roomFor(lens, budget - bare, s.text);
      if (!c) continue;
      step = { ...s, text: c };
    }
    const r = render(w, shown, notesFor(shown, left), step);
    r.shown = shown;
    r.left = left;
    best = r;
    if (size(r) <= budget) break;
  }
  return best;
};

// tableSummary says how many rows a table has and which are shown.
const tableSummary = (w, t, shown) => {
  const ns = t.shownRows.filter((r) => r.n > 0 && shown.has(r.idx)).map((r) => r.n);
  const total = t.model.body.length;
  const rows = total === 1 ? '1 row' : total + ' rows';
  if (!ns.length || (ns.length === total && ns[0] === 1)) return rows;
  const a = ns[0], b = ns[ns.length - 1];
  return rows + ', ' + (a === b ? 'row ' + a : 'rows ' + a + '-' + b) + ' shown';
};

// render writes the shown entries in document order and gives refs to the
// items and landmarks among them, and to the items written in a table's
// rows. A note for an entry follows the last line shown inside it.
// squeeze (views only) says how much of the text to write.
const render = (w, shown, notes, squeeze) => {
  const lines = [];
  const depths = new Map();
  const refs = [];
  const lastInside = new Map();
  for (const e of w.entries) {
    if (!shown.has(e.idx)) continue;
    for (let p = e.parent; p >= 0; p = w.entries[p].parent) lastInside.set(p, e.idx);
  }
  const landmarkOf = (e) => {
    for (let p = shownParent(w, e, shown); p >= 0; p = shownParent(w, w.entries[p], shown)) {
      if (w.entries[p].kind === 'landmark') return w.entries[p];
    }
    return null;
  };
  const refOf = (e) => { refs.push(e.el); return refFor(e.el); };
  const chars = squeeze ? squeeze.text : undefined;
  const pending = [];
  for (const e of w.entries) {
    if (!shown.has(e.idx)) continue;
    const d = depthOf(w, e, shown, depths);
    depths.set(e.idx, d);
    const pad = '  '.repeat(d);
    if (e.kind === 'row') {
      const t = w.entries[e.parent];
      lines.push(pad + '- ' + (e.n ? e.n + ': ' : 'columns: ') + rowText(e, t.model.columns, squeeze ? squeeze.cells : CELL_CHARS[w.mode], refOf, false));
    } else {
      let ref = '';
      // Text blocks get refs in full reads only: the view stays compact.
      if (e.kind !== 'text' || w.mode === 'full') ref = refOf(e);
      if (e.kind === 'frame') e.slot = ref;
      if (e.kind === 'table') e.summary = tableSummary(w, e, shown);
      lines.push(lineOf(e, d, ref, landmarkOf(e), chars));
      if (e.lines) {
        const n = chars === undefined ? e.lines.length : chars >= 100 ? 4 : chars ? 2 : 0;
        for (const l of e.lines.slice(0, n)) lines.push(pad + '  ' + l);
        if (n < e.lines.length) lines.push(pad + '  (' + (e.lines.length - n) + ' more lines)');
      }
      if (e.kind === 'landmark' && e.text && chars !== 0) lines.push(pad + '  - text: ' + (chars === undefined ? e.text : firstWords(e.text, chars)));
      if (e.kind === 'table' && e.cut) {
        if (!notes) notes = new Map();
        const range = e.cut[0] + '-' + e.cut[1];
        notes.set(e.idx, '- (rows ' + range + ' not shown: observe within ' + refFor(e.el) + ' with rows "' + range + '")');
      }
    }
    if (notes && notes.has(e.idx)) pending.push(e.idx);
    for (let i = pending.length - 1; i >= 0; i--) {
      const lm = pending[i];
      const last = lastInside.get(lm);
      if (last !== undefined && last > e.idx) continue;
      lines.push('  '.repeat(depths.get(lm) + 1) + notes.get(lm));
      pending.splice(i, 1);
    }
  }
  return { lines, refs };
};
