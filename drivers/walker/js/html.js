// html.js: the dom action's read, the page (or the first match of a
// selector) as HTML an agent may read. It is sanitised: no script, style
// or template contents, no comments, no event-handler or style attributes,
// no javascript:, vbscript: or data:text/html URLs, and a field's value as
// a read shows it (credentials masked). Elements a person cannot see are
// kept and flagged with data-buddi-hidden, not dropped. Open shadow roots
// are read in place of their host's children, as a person sees them.
// The answer stops adding nodes at max characters and still closes every
// tag it opened.
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base']);
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'poster', 'xlink:href', 'background', 'cite', 'data', 'srcset']);
const ATTR_CHARS = 300;

const escText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s) => escText(s).replace(/"/g, '&quot;');

// unsafeURL says whether a URL-bearing value would run code when followed.
const unsafeURL = (v) => {
  const s = v.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  return s.startsWith('javascript:') || s.startsWith('vbscript:') || s.startsWith('data:text/html');
};

// keptAttrs are el's attributes as the read shows them, [name, value] each.
const keptAttrs = (el) => {
  const out = [];
  for (const a of el.attributes) {
    const n = a.name.toLowerCase();
    if (n.startsWith('on') || n === 'style' || n === 'srcdoc' || n === 'value' || n === 'nonce' || n === 'integrity') continue;
    let v = a.value;
    if (URL_ATTRS.has(n) && unsafeURL(v)) continue;
    if (v.startsWith('data:') && v.length > 64) v = v.slice(0, Math.min(v.indexOf(',') + 1 || 64, 64)) + '…';
    out.push([n, clip(v, ATTR_CHARS)]);
  }
  const tag = el.localName;
  if (tag === 'input' && !['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image'].includes(el.type)) {
    const v = shownValue(el, el.value || '');
    if (v) out.push(['value', clip(v, ATTR_CHARS)]);
  }
  if ((tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) && el.checked) out.push(['checked', '']);
  if (tag === 'option' && el.selected) out.push(['selected', '']);
  return out;
};

// hiddenHere says whether el is hidden while its parent is not: display
// none, visibility hidden, or no box at all (display: contents aside).
const hiddenHere = (el) => {
  if (!el.checkVisibility) return el.hasAttribute('hidden') || style(el).display === 'none';
  if (el.checkVisibility({ visibilityProperty: true })) return false;
  return style(el).display !== 'contents';
};

// NO_BOX are elements that have no box of their own even when shown.
const NO_BOX = new Set(['option', 'optgroup', 'area', 'map', 'wbr', 'br', 'source', 'track', 'col', 'colgroup']);

const htmlOf = (doc, a) => {
  let root = doc.body || doc.documentElement;
  if (a.selector) {
    let el = null;
    try {
      for (const r of rootsOf(doc)) if ((el = r.querySelector(a.selector))) break;
    } catch (e) {
      return { error: 'selector' };
    }
    if (!el) return { error: 'nomatch' };
    root = el;
  }
  const max = a.max || 8000;
  let out = '', closers = 0, cut = false;
  const room = (s) => out.length + s.length + closers <= max;
  const visit = (n, hiddenAbove, raw) => {
    if (cut) return;
    if (n.nodeType === 3) {
      let t = raw ? n.data : n.data.replace(/\s+/g, ' ');
      if (!t || (t === ' ' && out.endsWith(' '))) return;
      t = escText(t);
      if (!room(t)) {
        const fit = max - out.length - closers;
        if (fit > 20) out += t.slice(0, fit - 1).replace(/&[a-z]*$/, '') + '…';
        cut = true;
        return;
      }
      out += t;
      return;
    }
    if (!isElement(n)) return;
    const tag = n.localName;
    if (DROPPED.has(tag)) return;
    const hidden = !hiddenAbove && !NO_BOX.has(tag) && hiddenHere(n);
    let open = '<' + tag;
    for (const [k, v] of keptAttrs(n)) open += v === '' ? ' ' + k : ' ' + k + '="' + escAttr(v) + '"';
    if (hidden) open += ' data-buddi-hidden';
    open += '>';
    const close = VOID.has(tag) ? '' : '</' + tag + '>';
    if (!room(open + close)) { cut = true; return; }
    out += open;
    if (!close) return;
    closers += close.length;
    if (tag === 'textarea') {
      const v = escText(shownValue(n, n.value || ''));
      if (room(v)) out += v; else cut = true;
    } else if (tag !== 'iframe' && tag !== 'frame' && tag !== 'object') {
      const keepRaw = raw || tag === 'pre';
      eachChild(n, (c) => visit(c, hiddenAbove || hidden, keepRaw));
    }
    closers -= close.length;
    out += close;
  };
  visit(root, false, false);
  return { text: out, cut };
};
