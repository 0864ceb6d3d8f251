// render.js: entries to tree lines, within a budget.
const quote = (s) => '"' + s.replace(/["\\]/g, '\\$&').replace(/\n/g, ' ') + '"';

const lineOf = (e, depth, ref, inherited) => {
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
  if (e.kind === 'landmark') s += ':';
  else if (e.value) s += ': ' + e.value;
  else if (e.text) s += ': ' + e.text;
  return s;
};

// keep drops text entries that say nothing the lines around them do not:
// empty ones, and a block whose text is only its one item's name.
const keepText = (w) => {
  const only = new Map();
  for (const e of w.entries) {
    if (e.kind !== 'item' || e.parent < 0) continue;
    const p = w.entries[e.parent];
    only.set(p.idx, only.has(p.idx) ? null : e);
  }
  for (const e of w.entries) {
    if (e.kind !== 'text') continue;
    const o = only.get(e.idx);
    e.drop = !e.text || (o && norm(o.name) === e.text);
    if (o && o.name && e.text === o.name) e.drop = true;
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

// choose picks the entries to show: by priority (fixed, main content,
// other content, chrome, hidden), then in document order, until budget.
// Landmarks are shown when something inside them is. It returns the
// entries left out.
const choose = (w, budget, byPriority) => {
  keepText(w);
  const leaves = w.entries.filter((e) => e.kind !== 'landmark' && !e.drop);
  if (byPriority) leaves.sort((a, b) => a.prio - b.prio || a.idx - b.idx);
  const shown = new Set();
  let used = 0;
  const left = [];
  let full = false;
  for (const e of leaves) {
    let cost = lineOf(e, 2, 'e00000').length + 1;
    const opened = [];
    for (let p = e.parent; p >= 0; p = w.entries[p].parent) {
      const pe = w.entries[p];
      if (pe.kind === 'landmark' && !shown.has(p)) { cost += lineOf(pe, 1, 'e00000').length + 1; opened.push(p); }
    }
    if (full || used + cost > budget) { full = true; left.push(e); continue; }
    used += cost;
    shown.add(e.idx);
    for (const p of opened) shown.add(p);
  }
  for (const e of w.entries) {
    if (e.kind === 'landmark' && e.context) shown.add(e.idx);
  }
  return { shown, left };
};

// render writes the shown entries in document order and gives refs to the
// items and landmarks among them. A note for a landmark follows the last
// line shown inside it.
const render = (w, shown, notes) => {
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
  const pending = [];
  for (const e of w.entries) {
    if (!shown.has(e.idx)) continue;
    const d = depthOf(w, e, shown, depths);
    depths.set(e.idx, d);
    let ref = '';
    // Text blocks get refs in full reads only: the view stays compact.
    if (e.kind !== 'text' || w.mode === 'full') { ref = refFor(e.el); refs.push(e.el); }
    if (e.kind === 'frame') e.slot = ref;
    lines.push(lineOf(e, d, ref, landmarkOf(e)));
    if (e.kind === 'landmark' && e.text) lines.push('  '.repeat(d + 1) + '- text: ' + e.text);
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
