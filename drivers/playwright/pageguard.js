// buddi's page guard: runs in every frame before the page's own scripts,
// and caps, in the page, what the page sends over the browser's one
// DevTools connection that every conversation shares: console calls (at
// most 20 a second after a burst of 100, each text cut to 1000 characters)
// and dialogs (3 at once, then one every 5 seconds; the others answer as
// dismissed). The wrappers are proxies of the browser's own functions, so
// they read as native code.
(() => {
  const W = globalThis;
  const { apply } = Reflect;
  const P = Proxy;
  const slice = String.prototype.slice;
  const min = Math.min;
  const clock = W.performance && W.performance.now ? W.performance.now.bind(W.performance) : Date.now;
  const CHARS = 1000;

  const bucket = (perSecond, burst) => {
    let tokens = burst;
    let last = clock();
    return () => {
      const t = clock();
      tokens = min(burst, tokens + ((t - last) * perSecond) / 1000);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    };
  };
  const clipped = (s) => (s.length > CHARS ? apply(slice, s, [0, CHARS]) + '…' : s);
  const cut = (a) => {
    try {
      if (typeof a === 'string') return clipped(a);
      if (typeof a === 'function' || a instanceof W.String) return clipped(String(a));
      if (a instanceof W.Error) {
        const text = String(a.stack || a);
        return text.length > CHARS ? clipped(text) : a;
      }
    } catch {
      return '(a value buddi could not read)';
    }
    return a;
  };
  const cutAll = (args) => {
    const out = [];
    for (let i = 0; i < args.length && i < 32; i++) out.push(cut(args[i]));
    return out;
  };

  const con = W.console;
  if (con) {
    const allow = bucket(20, 100);
    const say = con.warn;
    let dropped = 0;
    const names = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'assert',
      'count', 'countReset', 'group', 'groupCollapsed', 'groupEnd', 'time', 'timeLog', 'timeEnd', 'timeStamp'];
    for (const name of names) {
      const f = con[name];
      if (typeof f !== 'function') continue;
      con[name] = new P(f, {
        apply(target, self, args) {
          if (!allow()) {
            dropped++;
            return undefined;
          }
          if (dropped > 0 && typeof say === 'function') {
            apply(say, con, ['buddi dropped ' + dropped + ' console messages of this page: it logs more than 20 a second.']);
            dropped = 0;
          }
          return apply(target, self, cutAll(args));
        },
      });
    }
  }

  const dialogs = bucket(0.2, 3);
  const dismissed = { alert: undefined, confirm: false, prompt: null, print: undefined };
  for (const name of Object.keys(dismissed)) {
    const f = W[name];
    if (typeof f !== 'function') continue;
    W[name] = new P(f, {
      apply(target, self, args) {
        if (!dialogs()) return dismissed[name];
        return apply(target, self, cutAll(args));
      },
    });
  }
})();
