// The browser driver's half in the extension: one tab group named buddi
// per conversation, background tabs in it, and the debugger on those tabs
// only. buddi (drivers/extension) sends the commands; this file keeps the
// owner's rules for every command it is sent (the one exception is noted
// at eval):
//   - a tab that is not in its conversation's group (the owner dragged it
//     out, or never gave it) is refused, for reading, input and closing;
//   - input into a tab the owner is looking at, in the window they are
//     using, is refused;
//   - when the socket drops, every group is forgotten and the debugger let
//     go: the tabs are the owner's from then on.

const WORLD = 'buddi';
let engine = '';              // the page engine's source, sent by buddi (setup)
let groups = new Map();       // conversation → tab group id
const worlds = new Map();     // tab id → execution context id of the engine's world
const attached = new Set();   // tab ids the debugger is attached to
const casts = new Map();      // tab id → the time its last frame was sent (the owner's hand)
let emit = () => {};          // sends an event to buddi (worker.js sets it)

// FRAME_GAP throttles the hand's frames to ten a second.
const FRAME_GAP = 100;

export function setEmitter(fn) {
  emit = fn;
}

const refuse = (code, message) => Object.assign(new Error(message), { code });

const gone = () => refuse('tab_gone', 'The tab is gone: it was closed. Observe to see the tabs left.');

// forgotten is the answer for a conversation whose group this worker does
// not hold: the connection dropped (or the worker restarted) since, and
// the tabs are the owner's now.
const forgotten = () => refuse('group_gone', 'The connection to your browser dropped, so buddi let go of this conversation’s tabs; they are the owner’s now.');

// group returns the conversation's group id, or undefined.
function group(conv) {
  return groups.get(String(conv || ''));
}

// owned returns the tab if it is in the conversation's group.
async function owned(conv, tabId) {
  const g = group(conv);
  if (g === undefined) throw forgotten();
  let tab;
  try {
    tab = await chrome.tabs.get(Number(tabId));
  } catch {
    throw gone();
  }
  if (tab.groupId !== g) {
    throw refuse('not_allowed', 'That tab was moved out of the buddi group, so it is the owner’s now; agents do not act in it or close it.');
  }
  return tab;
}

// live returns the tab, refusing one Chrome unloaded to save memory: the
// debugger would wait on it for ever.
async function live(conv, tabId) {
  const tab = await owned(conv, tabId);
  if (tab.discarded) {
    throw refuse('not_answering', 'Chrome unloaded this tab to save memory; navigate it again or open a new tab.');
  }
  return tab;
}

// watched reports whether the owner is looking at tab: it is the active
// tab of the window they are using.
async function watched(tab) {
  if (!tab.active) return false;
  try {
    const w = await chrome.windows.get(tab.windowId);
    return !!w.focused;
  } catch {
    return false;
  }
}

async function tabsOf(conv) {
  const g = group(conv);
  if (g === undefined) return [];
  return chrome.tabs.query({ groupId: g });
}

// created opens a blank background tab that Chrome does not unload while
// an agent works in it, once its first blank page has loaded (a
// navigation sent before that would be cancelled by it).
async function created() {
  let tab = await chrome.tabs.create({ url: 'about:blank', active: false });
  tab = await chrome.tabs.update(tab.id, { autoDiscardable: false });
  for (let i = 0; i < 50 && tab.status !== 'complete'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    tab = await chrome.tabs.get(tab.id);
  }
  return tab;
}

const describe = (t) => ({ id: t.id, url: t.pendingUrl || t.url || '', title: t.title || '' });

async function attach(tabId) {
  if (attached.has(tabId)) return;
  try {
    await chrome.debugger.attach({ tabId }, '1.3');
  } catch (e) {
    if (!String(e.message || e).includes('Already attached')) {
      throw refuse('not_answering', `buddi could not attach to the tab: ${e.message || e}.`);
    }
  }
  attached.add(tabId);
}

async function send(tabId, method, params) {
  await attach(tabId);
  try {
    return await chrome.debugger.sendCommand({ tabId }, method, params || {});
  } catch (e) {
    const msg = String(e.message || e);
    if (msg.includes('No tab with given id') || msg.includes('not attached') || msg.includes('Detached')) {
      attached.delete(tabId);
      worlds.delete(tabId);
    }
    throw e;
  }
}

// world returns the context of the engine's isolated world in the tab's
// current document, making it (and loading the engine there) when the
// document is new.
async function world(tabId, fresh) {
  if (!engine) throw refuse('engine_missing', 'The extension lost the page engine; buddi sends it again.');
  if (!fresh && worlds.has(tabId)) return worlds.get(tabId);
  const tree = await send(tabId, 'Page.getFrameTree');
  const made = await send(tabId, 'Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: WORLD });
  const id = made.executionContextId;
  const r = await send(tabId, 'Runtime.evaluate', { expression: `globalThis.__buddi = ${engine}; true`, contextId: id, returnByValue: true });
  if (r.exceptionDetails) throw refuse('not_answering', 'The page engine did not load in the tab.');
  worlds.set(tabId, id);
  return id;
}

async function evaluate(tabId, expression) {
  for (let attempt = 0; ; attempt++) {
    const contextId = await world(tabId, attempt > 0);
    let r;
    try {
      r = await send(tabId, 'Runtime.evaluate', { expression, contextId, returnByValue: true, awaitPromise: true });
    } catch (e) {
      if (attempt === 0 && String(e.message || e).includes('context')) continue; // the document changed
      throw e;
    }
    if (r.exceptionDetails && attempt === 0 && /__buddi is not defined/.test(JSON.stringify(r.exceptionDetails))) continue;
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw refuse('not_answering', `The page script failed: ${(d.exception && d.exception.description) || d.text}`.slice(0, 300));
    }
    return r.result.value;
  }
}

// CDP_METHODS are the debugger commands the driver may send to a tab.
const CDP_METHODS = new Set(['Page.navigate', 'Page.stopLoading', 'Page.getNavigationHistory', 'Page.navigateToHistoryEntry',
  'Page.captureScreenshot', 'Input.dispatchMouseEvent', 'Input.dispatchKeyEvent']);

// DRIVER is the commands buddi's driver sends.
export const DRIVER = {
  // setup hands over the page engine (once per worker life).
  async setup(p) {
    engine = String(p.engine || '');
    worlds.clear();
    return { ok: true };
  },

  // open returns the conversation's tabs, making its group with one
  // blank background tab the first time.
  async open(p) {
    const conv = String(p.conv || '');
    if (!conv) throw refuse('bad_input', 'open needs a conversation.');
    let tabs = await tabsOf(conv);
    if (tabs.length === 0) {
      groups.delete(conv);
      const tab = await created();
      const g = await chrome.tabs.group({ tabIds: [tab.id] });
      await chrome.tabGroups.update(g, { title: 'buddi', collapsed: false });
      groups.set(conv, g);
      await remember();
      tabs = [await chrome.tabs.get(tab.id)];
    }
    return { tabs: tabs.map(describe) };
  },

  async tabs(p) {
    return { tabs: (await tabsOf(p.conv)).map(describe) };
  },

  // newtab opens a background tab in the conversation's group.
  async newtab(p) {
    const g = group(p.conv);
    if (g === undefined) throw forgotten();
    const tab = await created();
    await chrome.tabs.group({ tabIds: [tab.id], groupId: g });
    return describe(await chrome.tabs.get(tab.id));
  },

  // close closes one of the conversation's tabs, or all of them (and
  // forgets the group) when no tab is named.
  async close(p) {
    if (p.tab !== undefined && p.tab !== null) {
      await owned(p.conv, p.tab);
      await forgetTab(Number(p.tab));
      await chrome.tabs.remove(Number(p.tab));
      return { ok: true };
    }
    const tabs = await tabsOf(p.conv);
    for (const t of tabs) await forgetTab(t.id);
    if (tabs.length) await chrome.tabs.remove(tabs.map((t) => t.id));
    groups.delete(String(p.conv || ''));
    await remember();
    return { closed: tabs.length };
  },

  // cdp sends one debugger command, of those the driver uses, to one of
  // the conversation's tabs. Input (every Input. command, and whatever
  // buddi marks as input) is refused while the owner looks at the tab.
  async cdp(p) {
    const method = String(p.method);
    if (!CDP_METHODS.has(method)) throw refuse('bad_input', `The extension does not send ${method.slice(0, 60)} to a tab.`);
    const tab = await live(p.conv, p.tab);
    if ((p.input || method.startsWith('Input.')) && (await watched(tab))) throw watching();
    return send(tab.id, method, p.params);
  },

  // eval runs an expression in the engine's isolated world of the tab's
  // document (never the page's own world) and returns its value. What an
  // expression does cannot be seen from here: it counts as input, for the
  // looking-at rule, when buddi marks it so (fill, select, submit, focus).
  async eval(p) {
    const tab = await live(p.conv, p.tab);
    if (p.input && (await watched(tab))) throw watching();
    return { value: await evaluate(tab.id, String(p.expr)) };
  },

  // cast starts Chrome's screencast of the tab for the owner's hand.
  async cast(p) {
    const tab = await live(p.conv, p.tab);
    const num = (v, lo, hi, def) => (Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : def);
    await send(tab.id, 'Page.enable');
    try {
      await send(tab.id, 'Page.stopScreencast');
    } catch {
      // none was running
    }
    casts.set(tab.id, 0);
    await send(tab.id, 'Page.startScreencast', {
      format: 'jpeg', quality: num(p.quality, 10, 100, 60), everyNthFrame: 1,
      maxWidth: num(p.maxWidth, 16, 4096, 1280), maxHeight: num(p.maxHeight, 16, 4096, 1280),
    });
    return { ok: true };
  },

  async uncast(p) {
    const id = Number(p.tab);
    if (!casts.delete(id)) return { ok: true };
    try {
      await send(id, 'Page.stopScreencast');
    } catch {
      // the tab is gone
    }
    return { ok: true };
  },

  // hand is the owner's own input on the cast tab: refused unless a
  // screencast runs there, and not held back while the owner looks at it.
  async hand(p) {
    const tab = await live(p.conv, p.tab);
    if (!casts.has(tab.id)) throw refuse('no_hand', 'The page is not being shown live; take over again to drive it.');
    const method = String(p.method);
    if (!['Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText'].includes(method)) {
      throw refuse('bad_input', 'The hand sends only mouse, key and text input.');
    }
    await send(tab.id, method, p.params);
    return { ok: true };
  },

  // info says where a tab is, as Chrome knows it.
  async info(p) {
    const tab = await owned(p.conv, p.tab);
    return { ...describe(tab), active: tab.active, watched: await watched(tab), status: tab.status };
  },
};

const watching = () => refuse('not_allowed', 'The owner is looking at this tab in the window they are using, so buddi does not type or click under their hands; try again when they have moved on.');

async function forgetTab(tabId) {
  worlds.delete(tabId);
  if (attached.delete(tabId)) {
    try {
      await chrome.debugger.detach({ tabId });
    } catch {
      // the tab closed first
    }
  }
}

async function remember() {
  await chrome.storage.session.set({ groups: Object.fromEntries(groups) });
}

// letGo forgets every conversation's tabs and lets the debugger go: the
// socket dropped, so the tabs are the owner's now. They stay open.
export function letGo() {
  groups = new Map();
  worlds.clear();
  casts.clear();
  for (const tabId of attached) chrome.debugger.detach({ tabId }).catch(() => {});
  attached.clear();
  chrome.storage.session.set({ groups: {} });
}

// agentTabs counts the tabs in the conversations' groups.
export async function agentTabs() {
  let n = 0;
  for (const g of groups.values()) n += (await chrome.tabs.query({ groupId: g })).length;
  return n;
}

// The debugger's events: a frame of a cast tab is acknowledged at once
// (Chrome paints nothing more until it is) and then passed on at most ten
// a second; a cast tab's navigations are passed on for buddi to check.
chrome.debugger.onEvent.addListener((src, method, params) => {
  const id = src.tabId;
  if (!casts.has(id)) return;
  if (method === 'Page.screencastFrame') {
    chrome.debugger.sendCommand({ tabId: id }, 'Page.screencastFrameAck', { sessionId: params.sessionId }).catch(() => {});
    const now = Date.now();
    if (now - casts.get(id) < FRAME_GAP) return;
    casts.set(id, now);
    emit('frame', id, { data: params.data, metadata: params.metadata });
  } else if (method === 'Page.frameNavigated' && params.frame && !params.frame.parentId) {
    emit('navigated', id, { url: params.frame.url });
  }
});
chrome.debugger.onDetach.addListener((src) => {
  attached.delete(src.tabId);
  worlds.delete(src.tabId);
  if (casts.delete(src.tabId)) emit('gone', src.tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  attached.delete(tabId);
  worlds.delete(tabId);
  if (casts.delete(tabId)) emit('gone', tabId);
});

// A worker Chrome stopped and started again has no socket: nothing it held
// is buddi's any more.
letGo();
