// table.js: data tables as rows under their column headers. A table is one
// entry, each row one entry beneath it, its cells' text side by side; the
// links and controls in a cell keep their refs, written in the row.
const CELL_CHARS = { view: 80, full: 240, find: 160 };
// TABLE_ROWS is how many rows a read of the whole page shows of one table;
// a read within the table shows them all, part after part, or a range.
const TABLE_ROWS = 30;
const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);
const CELL_SELECTOR = '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]';

// isDataTable says whether el, of role, is a table of data: a table that
// holds no other table (one that does lays a page out).
const isDataTable = (el, role) => TABLE_ROLES.has(role) && !el.querySelector('table,[role=table],[role=grid]');

const rowsOf = (t) => {
  const all = t.localName === 'table' ? Array.from(t.rows) : Array.from(t.querySelectorAll('[role=row]'));
  return all.filter((r) => r.getClientRects().length > 0);
};

const cellsOf = (r) => (r.localName === 'tr' ? Array.from(r.cells) : Array.from(r.querySelectorAll(CELL_SELECTOR)));
const headCell = (c) => c.localName === 'th' || attr(c, 'role') === 'columnheader';

// tableModel reads a table's rows: its header rows (in a thead, or a first
// row of header cells) and the column names they give, and its body rows,
// numbered from 1.
const tableModel = (t) => {
  const rows = rowsOf(t);
  let head = 0;
  while (head < rows.length - 1 && head < 3) {
    const r = rows[head];
    const inHead = r.parentElement && r.parentElement.localName === 'thead';
    if (!inHead && !(head === 0 && cellsOf(r).every(headCell))) break;
    head++;
  }
  const columns = [];
  if (head > 0) {
    for (const c of cellsOf(rows[head - 1])) {
      const text = clip(contentText(c), 40);
      for (let i = 0; i < (c.colSpan || 1); i++) columns.push(text);
    }
  }
  return { el: t, head: rows.slice(0, head), body: rows.slice(head), columns };
};

let models = new WeakMap();
const modelOf = (t) => {
  let m = models.get(t);
  if (!m) { m = tableModel(t); models.set(t, m); }
  return m;
};

// rowNumber is r's number among its table's body rows (0 for a header row).
const rowNumber = (m, r) => m.body.indexOf(r) + 1;

// walkTable reads a data table: in a view the rows on screen, in a full
// read the rows after where the read starts (all of them when the read is
// of the table itself, else at most TABLE_ROWS), or the range the read asks
// for.
const walkTable = (w, el, k, role, name, place) => {
  const m = modelOf(el);
  const t = addEntry(w, { kind: 'table', el, role: 'table', name, parent: k.parent, prio: k.prio, model: m,
    context: place !== '', fixed: !!k.fixed, ariaHidden: !!k.ariaHidden, shownRows: [] });
  const kt = { ...k, parent: t.idx, block: null, table: t };
  for (const r of m.head) walkRow(w, r, kt, 0);
  const own = w.rows && w.rowsOf === el;
  let i = 0, limit = m.body.length;
  if (w.mode === 'view') {
    i = Math.max(0, firstReaching(m.body, k.clip.t) - 1);
  } else if (own) {
    i = Math.max(0, w.rows[0] - 1);
    limit = Math.min(limit, w.rows[1]);
  }
  let shown = 0;
  for (; i < limit; i++) {
    if (w.stopped || w.more) return;
    if (w.mode === 'full' && w.size > w.budget) { w.more = true; return; }
    const r = m.body[i];
    if (w.mode === 'view') {
      const b = box(rectOf(r));
      if (b.t >= k.clip.b) break;
      if (!meets(b, k.clip)) continue;
    } else if (w.skipping) {
      const s = skip(w, r);
      if (s === 'out' || s === 'start') continue;
    } else if (!own && w.within !== el && shown >= TABLE_ROWS) {
      t.cut = [i + 1, m.body.length];
      return;
    }
    walkRow(w, r, kt, i + 1);
    shown++;
  }
};

// walkRow adds a row and walks its cells: their text goes to the row, the
// items in them become entries written in the row.
const walkRow = (w, r, k, n) => {
  const e = addEntry(w, { kind: 'row', el: r, role: 'row', parent: k.parent, prio: k.prio, n, cells: [] });
  k.table.shownRows.push(e);
  const kc = { ...k, parent: e.idx };
  for (const c of cellsOf(r)) {
    const cell = { parts: [], items: [], span: c.colSpan || 1 };
    e.cells.push(cell);
    kc.block = cell;
    kc.cell = cell;
    eachChild(c, (n2) => walkNode(w, n2, kc));
  }
};

// cellText is a cell as a row writes it: its text, or its one item when
// the text is only that item's name, and the items in it otherwise.
const cellText = (c, chars, refOf) => {
  const items = c.items.filter((it) => !it.hidden);
  if (items.length === 1 && norm(items[0].name) === c.text) return itemText(items[0], refOf(items[0]));
  let s = chars > 0 ? clip(c.text, chars) : '';
  for (const it of items) s += (s ? ' ' : '') + itemText(it, refOf(it));
  return s;
};

// itemText is an item written inside a line: its role, name and ref.
const itemText = (e, ref) => e.role + (e.name ? ' ' + quote(clip(e.name, 80)) : '') + (ref ? ' [ref=' + ref + ']' : '');

// rowText is a row's cells side by side; with withColumns, each named by
// its column (a row shown on its own).
const rowText = (row, columns, chars, refOf, withColumns) => {
  const parts = [];
  let col = 0;
  for (const c of row.cells) {
    const text = cellText(c, chars, refOf);
    const name = withColumns && columns[col] ? columns[col] + ': ' : '';
    parts.push(name + text);
    col += c.span;
  }
  return parts.join(' | ');
};
