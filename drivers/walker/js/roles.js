// roles.js: the role of an element, explicit or implied by its tag, close
// to what assistive technology reports.
const LANDMARKS = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form', 'region']);
const CHROME = new Set(['banner', 'navigation', 'complementary', 'contentinfo', 'search']);
const WIDGETS = new Set(['link', 'button', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox',
  'listbox', 'slider', 'spinbutton', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem']);
const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton']);
const FROM_CONTENT = new Set(['link', 'button', 'heading', 'cell', 'columnheader', 'rowheader', 'option', 'tab',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'checkbox', 'radio', 'switch', 'tooltip']);
const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox', hidden: '' };
const TAG_ROLES = { nav: 'navigation', main: 'main', aside: 'complementary', form: 'form', search: 'search',
  section: 'region', ul: 'list', ol: 'list', menu: 'list', li: 'listitem', table: 'table', tr: 'row', td: 'cell',
  th: 'columnheader', p: 'paragraph', blockquote: 'blockquote', dialog: 'dialog', details: 'group',
  summary: 'button', textarea: 'textbox', option: 'option', button: 'button', dt: 'term', dd: 'definition',
  figure: 'figure', pre: 'code', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading' };

const scoped = (el) => { const p = parentOf(el); return p && p.closest && p.closest('article,aside,main,nav,section'); };

const implicitRole = (el) => {
  const tag = el.localName;
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'input': {
      const t = String(el.type || 'text').toLowerCase();
      if (t in INPUT_ROLES) return INPUT_ROLES[t];
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'header': return scoped(el) ? '' : 'banner';
    case 'footer': return scoped(el) ? '' : 'contentinfo';
    case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
  }
  if (TAG_ROLES[tag]) return TAG_ROLES[tag];
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
  return '';
};

// DPUB_LINKS are the publishing roles that are links (a footnote's mark,
// its way back): assistive technology treats them as links.
const DPUB_LINKS = new Set(['doc-noteref', 'doc-backlink', 'doc-biblioref', 'doc-glossref']);

const roleOf = (el) => {
  if (!memo) return roleFor(el);
  let r = memo.role.get(el);
  if (r === undefined) memo.role.set(el, (r = roleFor(el)));
  return r;
};

const roleFor = (el) => {
  const explicit = attr(el, 'role').trim().split(/\s+/)[0].toLowerCase();
  if (explicit === 'none' || explicit === 'presentation') return '';
  if (DPUB_LINKS.has(explicit)) return 'link';
  if (explicit && explicit !== 'generic') return explicit;
  return implicitRole(el);
};

const levelOf = (el) => {
  const m = /^h([1-6])$/.exec(el.localName);
  if (m) return Number(m[1]);
  return Number(attr(el, 'aria-level')) || 2;
};

// kindOf says how the walker treats a role: a landmark it shows as a region,
// an item it lists with a ref, or neither.
const isLandmark = (role, name) => LANDMARKS.has(role) && (name !== '' || (role !== 'form' && role !== 'region'));
const isItem = (role) => role === 'heading' || role === 'img' || WIDGETS.has(role);

// ITEM_SELECTOR finds everything the outline counts, in document order.
const HEADING_SELECTOR = 'h1,h2,h3,h4,h5,h6,[role=heading]';
const LANDMARK_SELECTOR = 'nav,main,aside,header,footer,form,search,section,[role=navigation],[role=main],' +
  '[role=complementary],[role=banner],[role=contentinfo],[role=search],[role=region],[role=form]';
const LINK_SELECTOR = 'a[href],area[href],[role=link]';
const BUTTON_SELECTOR = 'button,input[type=button],input[type=submit],input[type=reset],input[type=image],summary,[role=button]';
const FIELD_SELECTOR = 'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]):not([type=image]),' +
  'select,textarea,[contenteditable=""],[contenteditable=true],[role=textbox],[role=searchbox],[role=combobox],' +
  '[role=checkbox],[role=radio],[role=switch],[role=slider],[role=spinbutton],[role=listbox]';
const ROLE_SELECTORS = {
  link: LINK_SELECTOR, button: BUTTON_SELECTOR + ',input[type=file]', heading: HEADING_SELECTOR,
  textbox: 'input,textarea,[contenteditable],[role=textbox]', searchbox: 'input[type=search],[role=searchbox]',
  combobox: 'select,input[list],[role=combobox]', listbox: 'select,[role=listbox]', checkbox: 'input[type=checkbox],[role=checkbox]',
  radio: 'input[type=radio],[role=radio]', img: 'img,[role=img]', navigation: 'nav,[role=navigation]',
  main: 'main,[role=main]', option: 'option,[role=option]', tab: '[role=tab]', menuitem: '[role=menuitem]',
};

// selectorFor finds every element that may have role: its explicit form and
// the tags and input types that have it implicitly (roleOf decides).
const selectorFor = (role) => {
  if (ROLE_SELECTORS[role]) return ROLE_SELECTORS[role];
  const esc = CSS.escape(role);
  const tags = Object.keys(TAG_ROLES).filter((t) => TAG_ROLES[t] === role);
  const types = Object.keys(INPUT_ROLES).filter((t) => INPUT_ROLES[t] === role).map((t) => 'input[type=' + t + ']');
  return ['[role=' + esc + ']', ...tags, ...types].join(',');
};

const kindOfCounted = (el) => {
  if (el.matches(LINK_SELECTOR)) return 'links';
  if (el.matches(BUTTON_SELECTOR)) return 'buttons';
  return 'fields';
};
const COUNTED = LINK_SELECTOR + ',' + BUTTON_SELECTOR + ',' + FIELD_SELECTOR + ',' + HEADING_SELECTOR;
