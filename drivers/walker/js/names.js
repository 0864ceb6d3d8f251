// names.js: accessible names, after the ARIA name computation in its common
// cases: labelledby, aria-label, labels and alt text, content, title.
const NAME_CHARS = 200;

// contentText is an element's text as a name from content: alt text for
// images, aria-label where a child has one, nothing hidden or scripted;
// about cap characters of it (by default, enough for a name).
const contentText = (root, skip, cap) => {
  if (memo && !skip && !cap) {
    let t = memo.text.get(root);
    if (t === undefined) memo.text.set(root, (t = textOf(root, skip, cap)));
    return t;
  }
  return textOf(root, skip, cap);
};

const textOf = (root, skip, cap) => {
  const parts = [];
  let size = 0;
  const most = cap || NAME_CHARS * 2;
  const visit = (n) => {
    if (size > most) return;
    if (n.nodeType === 3) { parts.push(n.data); size += n.data.length; return; }
    if (!isElement(n) || n === skip || SKIP.has(n.localName) || n.hidden || attr(n, 'aria-hidden') === 'true') return;
    if (n !== root) {
      const cs = style(n);
      if (cs.display === 'none' || cs.visibility === 'hidden') return;
      const label = attr(n, 'aria-label').trim();
      if (label) { parts.push(' ' + label + ' '); size += label.length; return; }
    }
    if (n.localName === 'img' || n.localName === 'area') { parts.push(attr(n, 'alt')); return; }
    if (n.localName === 'br') { parts.push(' '); return; }
    if (n !== root && (n.localName === 'input' || n.localName === 'textarea')) {
      parts.push(' ' + shownValue(n, n.value || '') + ' ');
      return;
    }
    if (n !== root && n.localName === 'select') {
      parts.push(' ' + shownValue(n, Array.from(n.selectedOptions || []).map((o) => o.label).join(' ')) + ' ');
      return;
    }
    eachChild(n, visit);
    if (n !== root && n.localName !== 'span' && n.localName !== 'code' && n.localName !== 'em' && n.localName !== 'b') parts.push(' ');
  };
  visit(root);
  return norm(parts.join(''));
};

const byIds = (el, ids) => {
  const doc = el.getRootNode();
  return norm(ids.split(/\s+/).map((id) => {
    const t = id && doc.getElementById ? doc.getElementById(id) : null;
    return t ? (attr(t, 'aria-label') || contentText(t)) : '';
  }).join(' '));
};

const labelsOf = (el) => {
  if (!el.labels || !el.labels.length) return '';
  return norm(Array.from(el.labels).map((l) => contentText(l, el)).join(' '));
};

// labelOf is what labels the element, as a target by label matches it:
// its label elements, else what aria-labelledby or aria-label say.
const labelOf = (el) => {
  const own = labelsOf(el);
  if (own) return clip(own, NAME_CHARS);
  const lb = attr(el, 'aria-labelledby').trim();
  if (lb) { const n = byIds(el, lb); if (n) return clip(n, NAME_CHARS); }
  return clip(norm(attr(el, 'aria-label')), NAME_CHARS);
};

const fieldName = (el, tag) => {
  const type = String(el.type || '').toLowerCase();
  if (tag === 'input' && (type === 'button' || type === 'submit' || type === 'reset')) {
    return el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
  }
  if (tag === 'input' && type === 'image') return attr(el, 'alt') || el.value || 'Submit';
  return labelsOf(el) || attr(el, 'placeholder') || attr(el, 'aria-placeholder');
};

const nameOf = (el, role) => {
  if (!memo) return nameFor(el, role);
  const m = memo.name.get(el);
  if (m && m.role === role) return m.name;
  const name = nameFor(el, role);
  memo.name.set(el, { role, name });
  return name;
};

const nameFor = (el, role) => {
  const lb = attr(el, 'aria-labelledby').trim();
  if (lb) { const n = byIds(el, lb); if (n) return clip(n, NAME_CHARS); }
  const al = norm(attr(el, 'aria-label'));
  if (al) return clip(al, NAME_CHARS);
  const tag = el.localName;
  let n = '';
  if (tag === 'input' || tag === 'select' || tag === 'textarea') n = fieldName(el, tag);
  else if (tag === 'img' || tag === 'area') n = attr(el, 'alt');
  else if (tag === 'fieldset') { const l = el.querySelector(':scope > legend'); n = l ? contentText(l) : ''; }
  else if (tag === 'table') { const c = el.querySelector(':scope > caption'); n = c ? contentText(c) : ''; }
  else if (tag === 'figure') { const c = el.querySelector(':scope > figcaption'); n = c ? contentText(c) : ''; }
  if (!n && FROM_CONTENT.has(role)) n = contentText(el);
  if (!n) n = attr(el, 'title');
  return clip(norm(n), NAME_CHARS);
};
