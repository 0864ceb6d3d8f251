// input.js: where text would go, and filling a field in the same call that
// checks it. The page's scripts run between calls; inside one call nothing
// of theirs runs but the event handlers the call itself fires.

// Elements that may host a shadow root: a closed one hides what has focus.
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4',
  'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
const FRAME_OWNERS = new Set(['iframe', 'frame', 'object', 'embed', 'portal', 'fencedframe']);
// Input types whose text is typed at a caret, and types whose value is
// picked whole (a date, a colour, a slider's number): fill sets those in one
// piece, after the browser's own parsing of that type has accepted it.
const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
const PICKED_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
// Input types that take no text at all: a click, a file chooser, or nothing.
const NO_TEXT = new Set(['button', 'submit', 'reset', 'image', 'file', 'checkbox', 'radio', 'hidden']);

const inputType = (el) => String(el.type || 'text').toLowerCase();

// editable says whether text can go into el: a text area, an input of a
// type that takes text or a picked value (an unknown type is a text box, as
// in the browser), or editable content.
const editable = (el) => {
  if (!el) return false;
  if (el.localName === 'textarea') return true;
  if (el.localName === 'input') return !NO_TEXT.has(inputType(el));
  return !!el.isContentEditable;
};

// fits says whether the field would keep v as it is: the browser's own
// parsing of the field's type (with its min, max and step) is tried on a
// detached copy, so a value the field would drop or change is refused
// before anything on the page is touched.
const fits = (doc, el, v) => {
  const t = inputType(el);
  if (el.localName !== 'input' || (!PICKED_INPUTS.has(t) && t !== 'number') || v === '') return true;
  const probe = doc.createElement('input');
  probe.type = t;
  for (const a of ['min', 'max', 'step']) if (el.hasAttribute(a)) probe.setAttribute(a, el.getAttribute(a));
  probe.value = v;
  return probe.value === v;
};

// deepActive is the focused element as far as open shadow roots let us see.
const deepActive = (doc) => {
  let el = doc.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
};

// focusState says where typed text would land in this frame's document:
// has (the document holds focus, itself or in a frame within), owner (the
// focus is in a frame within), edit (a field takes the text), unsure (the
// focused element may hide a closed shadow root, so where the text lands
// cannot be seen), the focused element's info, and the document's
// navigation mark (navMark), so a key's driver knows it from the same read.
const focusState = (doc) => {
  const el = deepActive(doc);
  const none = !el || el === doc.body || el === doc.documentElement;
  const tag = el ? el.localName : '';
  return {
    has: doc.hasFocus(), owner: !none && FRAME_OWNERS.has(tag), edit: !none && editable(el),
    unsure: !none && !editable(el) && !el.shadowRoot && (SHADOW_HOSTS.has(tag) || tag.includes('-')),
    info: none ? null : info(el), nav: navMark(),
  };
};

const focusRef = (doc, ref) => {
  const el = elementOf(ref);
  if (!el) return { error: 'stale' };
  el.focus();
  return focusState(doc);
};

// same reports whether el still has the attributes the driver checked.
const same = (el, want) => {
  const now = info(el);
  return now.tag === want.tag && now.type === want.type && now.ac === want.ac && now.nm === want.nm &&
    now.id === want.id && now.im === want.im;
};

const nativeValue = (el, v) => {
  const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
};

// originOf is the origin of the document el is in, as the browser
// serialises it (a frame's own, "null" for an opaque one).
const originOf = (el) => {
  const view = el.ownerDocument.defaultView;
  return view ? String(view.origin) : 'null';
};

// fill focuses the element, checks that it is the one focused and still
// the field the driver classified (a page may swap a field's type on
// focus), and only then replaces its text, all in this one call.
const fillRef = (doc, a) => {
  const el = elementOf(a.ref);
  if (!el) return { error: 'stale' };
  if (a.checked && !matches(el, a.want)) return { error: 'recheck' };
  if (!editable(el)) return { error: 'kind', type: el.localName === 'input' ? inputType(el) : el.localName };
  if (el.disabled || el.readOnly) return { error: 'disabled' };
  // An owner's secret goes only into a document of an origin it is for,
  // read here, in the call that types, before anything is focused.
  if (a.origins && !a.origins.includes(originOf(el))) return { error: 'origin', origin: originOf(el), for: a.origins };
  if (!fits(doc, el, a.value)) {
    return { error: 'value', type: inputType(el), min: attr(el, 'min'), max: attr(el, 'max'), step: attr(el, 'step') };
  }
  el.focus();
  const now = deepActive(doc);
  if (now !== el) return { error: 'focus', info: now && now !== doc.body ? info(now) : null };
  if (!same(el, a.want)) return { error: 'changed', info: info(el) };
  if (a.origins) ownerFilled.add(el);
  if (el.isContentEditable) {
    const r = doc.createRange();
    r.selectNodeContents(el);
    const sel = doc.getSelection();
    sel.removeAllRanges();
    sel.addRange(r);
  } else if (el.localName === 'input' && PICKED_INPUTS.has(inputType(el))) {
    nativeValue(el, a.value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { ok: true, title: String(doc.title).slice(0, 300) };
  } else if (TEXT_INPUTS.has(inputType(el)) || el.localName === 'textarea') {
    el.select();
  }
  const done = a.value === '' ? doc.execCommand('delete') : doc.execCommand('insertText', false, a.value);
  const got = el.isContentEditable ? el.textContent : el.value;
  if ((!done || got !== a.value) && !el.isContentEditable) nativeValue(el, a.value);
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, title: String(doc.title).slice(0, 300) };
};
