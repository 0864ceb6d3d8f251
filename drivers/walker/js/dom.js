// dom.js: small readers of the DOM shared by the rest.
const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'iframe', 'frame', 'object', 'embed']);
const style = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
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

const before = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
