// credential.js: which fields hold credentials and which values look like
// keys, after egress.CredentialField and egress.LooksLikeSecret, whose
// tables the driver gives as RULES (egress.CredentialRules). Their values
// are masked wherever a read would show them.
const MASK = '••••';

const isLetterOrDigit = (ch) => /[\p{L}\p{Nd}]/u.test(ch);

// splitWords breaks an identifier into lower-case words at separators and
// at lower-to-upper case changes: "user[newPassword]" is user, new, password.
const splitWords = (s) => {
  const words = [];
  let cur = '', prev = '';
  const flush = () => { if (cur) { words.push(cur.toLowerCase()); cur = ''; } };
  for (const ch of s) {
    if (!isLetterOrDigit(ch)) flush();
    else if (/\p{Lu}/u.test(ch) && /\p{Ll}/u.test(prev)) { flush(); cur += ch; } else cur += ch;
    prev = ch;
  }
  flush();
  return words;
};

const credentialName = (s) => {
  const words = splitWords(s);
  for (let i = 0; i < words.length; i++) {
    if (RULES.words.includes(words[i])) return true;
    if (i + 1 < words.length && RULES.words.includes(words[i] + words[i + 1])) return true;
  }
  const joined = words.join('');
  return RULES.runs.some((r) => joined.includes(r));
};

const numericCode = (mode, s) => {
  if (mode.trim().toLowerCase() !== 'numeric') return false;
  let code = false;
  for (const w of splitWords(s)) {
    if (RULES.codeWords.includes(w)) code = true;
    else if (RULES.notCodeWords.includes(w)) return false;
  }
  return code;
};

// credentialField classifies an element by its own attributes.
const credentialField = (el) => {
  const tag = el.localName;
  const type = tag === 'input' || tag === 'textarea' || tag === 'select' ? String(el.type || '') : attr(el, 'type');
  if (type.trim().toLowerCase() === 'password') return true;
  for (const tok of attr(el, 'autocomplete').toLowerCase().split(/\s+/)) if (tok && RULES.autocomplete.includes(tok)) return true;
  for (const s of [attr(el, 'name'), attr(el, 'id')]) {
    if (credentialName(s) || numericCode(attr(el, 'inputmode'), s)) return true;
  }
  return false;
};

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const allIn = (s, set) => { for (const c of s) if (!set.includes(c) || c.length !== 1) return false; return true; };

const entropy = (s) => {
  const counts = new Map();
  for (const c of s) counts.set(c, (counts.get(c) || 0) + 1);
  let h = 0;
  for (const n of counts.values()) { const p = n / s.length; h -= p * Math.log2(p); }
  return h;
};

const wordShare = (tok) => {
  let inWords = 0;
  for (let i = 0; i < tok.length;) {
    let j = i;
    if (tok[j] >= 'A' && tok[j] <= 'Z') j++;
    let k = j;
    while (k < tok.length && tok[k] >= 'a' && tok[k] <= 'z') k++;
    if (k - j >= 3) { inWords += k - i; i = k; continue; }
    i++;
  }
  return inWords / tok.length;
};

const randomLooking = (tok) => {
  if (tok.length < 32) return false;
  const upper = /[A-Z]/.test(tok), lower = /[a-z]/.test(tok), digit = /[0-9]/.test(tok);
  if (allIn(tok, '0123456789abcdef') || allIn(tok, '0123456789ABCDEF')) return digit && (upper || lower) && entropy(tok) >= 3.0;
  if (allIn(tok, B64URL) || allIn(tok, B64STD)) return digit && upper && lower && entropy(tok) >= 4.0 && wordShare(tok) <= 0.6;
  return false;
};

const isJWT = (tok) => {
  const parts = tok.split('.');
  if (parts.length !== 3 || !parts[0].startsWith('eyJ') || !parts[1].startsWith('eyJ')) return false;
  return parts.slice(0, 2).every((p) => p.length >= 10 && allIn(p, B64URL)) && allIn(parts[2], B64URL);
};

const secretToken = (tok) => {
  for (const r of RULES.tokens) {
    if (!tok.startsWith(r.prefix)) continue;
    const rest = tok.slice(r.prefix.length);
    if (rest.length >= r.min && (r.max === 0 || rest.length === r.max) && allIn(rest, r.set)) return true;
  }
  return isJWT(tok) || randomLooking(tok.replace(/=+$/, ''));
};

// secretLike reports whether a value holds something that looks like a key.
const secretLike = (v) => {
  if (v.includes('-----BEGIN ') && v.includes('PRIVATE KEY')) return true;
  return v.split(/[ \t\n\r"'`,;:=&?()<>[\]{}]+/).some((tok) => tok && secretToken(tok));
};

// ownerFilled holds the fields buddi typed one of the owner's secrets
// into: reads and screenshots mask them whatever they are.
const ownerFilled = new WeakSet();

// shownValue is what a read may show of a field's value.
const shownValue = (el, v) => (v && (ownerFilled.has(el) || credentialField(el) || secretLike(v)) ? MASK : v);

// maskedIn lists the fields of a document (through open shadow roots)
// whose values reads mask, for screenshots to cover.
const maskedIn = (root) => {
  const out = [];
  for (const r of rootsOf(root)) {
    for (const el of r.querySelectorAll('input, textarea, select, [contenteditable]')) {
      const v = el.isContentEditable ? el.textContent : el.localName === 'select'
        ? Array.from(el.selectedOptions || []).map((o) => o.label).join(' ') : el.value;
      if (shownValue(el, v || '') === MASK || (el.localName === 'input' && el.type === 'password')) out.push(el);
    }
  }
  return out;
};
