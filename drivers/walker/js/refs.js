// refs.js: an element keeps its ref for the life of its document, across
// observations; the driver passes in the next number it has not given out in
// this conversation, so a number is never given to two elements.
const refOf = new WeakMap();
const byRef = new Map();
let nextRef = 1;

const useBase = (n) => { if (n > nextRef) nextRef = n; };

const refFor = (el) => {
  let r = refOf.get(el);
  if (!r) {
    r = 'e' + nextRef++;
    refOf.set(el, r);
    byRef.set(r, new WeakRef(el));
  }
  return r;
};

const elementOf = (ref) => {
  const w = byRef.get(ref);
  const el = w && w.deref();
  return el && el.isConnected ? el : null;
};
