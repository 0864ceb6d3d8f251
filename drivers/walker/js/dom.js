// dom.js: small readers of the DOM shared by the rest.
const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'iframe', 'frame', 'object', 'embed']);
// memo is what one read has already worked out about elements (computed
// style, box, role, name, text), so that its walk and the infos of the refs
// it shows ask the page once for each. A read sets it and drops it when it
// ends: the page may change between reads, and nothing in a read changes it.
let memo = null;
const newMemo = () => ({ style: new Map(), rect: new Map(), role: new Map(), name: new Map(), text: new Map() });

const style = (el) => {
  if (!memo) return el.ownerDocument.defaultView.getComputedStyle(el);
  let cs = memo.style.get(el);
  if (!cs) memo.style.set(el, (cs = el.ownerDocument.defaultView.getComputedStyle(el)));
  return cs;
};

// rectOf is the element's box, as the read first measured it.
const rectOf = (el) => {
  if (!memo) return el.getBoundingClientRect();
  let r = memo.rect.get(el);
  if (!r) memo.rect.set(el, (r = el.getBoundingClientRect()));
  return r;
};
const norm = (s) => s.replace(/\s+/g, ' ').trim();
const clip = (s, n) => (s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : s);
const attr = (el, n) => el.getAttribute(n) || '';
const isElement = (n) => n.nodeType === 1;

// eachChild visits the children a person sees: a shadow root's instead of
// the host's, and a slot's assigned nodes.
const eachChild = (el, fn) => {
  let first = el.shadowRoot ? el.shadowRoot.firstChild : el.firstChild;
  if (el.localName === 'slot' && el.assignedNodes) {
    const assigned = el.assignedNodes({ flatten: true });
    if (assigned.length) {
      for (const n of assigned) fn(n);
      return;
    }
  }
  for (let c = first; c; c = c.nextSibling) fn(c);
};

// parentOf climbs out of shadow roots.
const parentOf = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;

const contains = (outer, inner) => {
  for (let e = inner; e; e = parentOf(e)) if (e === outer) return true;
  return false;
};

// hostsOf is n followed by the shadow hosts that hold it, innermost first.
const hostsOf = (n) => {
  const out = [n];
  for (let r = n.getRootNode(); r && r.host; r = r.host.getRootNode()) out.push(r.host);
  return out;
};

// before says whether a comes before b as a person reads the page: in
// document order, with a shadow root's content at its host.
const before = (a, b) => {
  const p = a.compareDocumentPosition(b);
  if (!(p & Node.DOCUMENT_POSITION_DISCONNECTED)) return !!(p & Node.DOCUMENT_POSITION_FOLLOWING);
  const ha = hostsOf(a), hb = hostsOf(b);
  for (let i = 0; i < ha.length; i++) {
    for (let j = 0; j < hb.length; j++) {
      if (ha[i].getRootNode() !== hb[j].getRootNode()) continue;
      if (ha[i] === hb[j]) return i > 0 ? false : j > 0; // a host comes before what it holds
      return !!(ha[i].compareDocumentPosition(hb[j]) & Node.DOCUMENT_POSITION_FOLLOWING);
    }
  }
  return false;
};

// rootsOf is root and every open shadow root within it, outermost first:
// everywhere a search by selector must look.
const rootsOf = (root) => {
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const el of out[i].querySelectorAll('*')) if (el.shadowRoot) out.push(el.shadowRoot);
  return out;
};

// firstReaching is the index of the first element of list whose box
// reaches below top, found by bisection (in normal flow each follows the
// one before down the page).
const firstReaching = (list, top) => {
  const rectAt = (i) => {
    for (let j = i; j < list.length; j++) {
      const r = rectOf(list[j]);
      if (r.width >= 1 && r.height >= 1) return r;
    }
    return null;
  };
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const r = rectAt(mid);
    if (r && r.bottom <= top) lo = mid + 1; else hi = mid;
  }
  return lo;
};
