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
//
// A tab's frames are reached through the tab's own debugger: a frame in
// the page's process by its frame id, and a frame Chrome runs in a process
// of its own (a cross-site iframe) through the child session Chrome gives
// for it (Target.setAutoAttach, flat sessions). Every frame gets its own
// isolated world for the engine; nothing reaches a tab that is not the
// conversation's.

const WORLD = 'buddi';
let engine = '';              // the page engine's source, sent by buddi (setup)
let groups = new Map();       // conversation → tab group id
const worlds = new Map();     // place (tab and frame) → {id, session}: the engine's world in its document
const kids = new Map();       // tab id → Map(frame id → session id) of the tab's out-of-process frames
const homes = new Map();      // place → {session, parent}: where a frame found in its parent lives
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

// frameGone is the answer for a frame that closed, or whose document
// buddi no longer knows: what was read in it is stale.
const frameGone = () => refuse('frame_gone', 'The frame is gone: it closed or its page went elsewhere. Observe again.');

// place names a frame of a tab ('' for the tab's page) in the maps above.
const place = (tabId, frame) => `${tabId} ${frame || ''}`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
  await follow(tabId);
}

// follow asks Chrome for a child session of every frame it runs out of
// process below the page (or below the frame of session), now and later;
// Target.attachedToTarget brings each (adopt). The first ones arrive
// before the answer.
async function follow(tabId, session) {
  try {
    await chrome.debugger.sendCommand(debuggee(tabId, session), 'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'iframe' }] });
  } catch {
    // the tab or frame went away; its frames with it
  }
}

const debuggee = (tabId, session) => (session ? { tabId, sessionId: session } : { tabId });

// send sends one command to the tab's page, or to the child session of
// one of its out-of-process frames.
async function send(tabId, method, params, session) {
  await attach(tabId);
  try {
    return await chrome.debugger.sendCommand(debuggee(tabId, session), method, params || {});
  } catch (e) {
    const msg = String(e.message || e);
    if (msg.includes('No tab with given id') || msg.includes('not attached') || msg.includes('Detached')) {
      attached.delete(tabId);
      forgetFrames(tabId);
    }
    throw e;
  }
}

// forgetFrames drops what is known of the tab's documents and frames;
// the child sessions too, unless only the page's document changed (they
// come and go with their frames then).
function forgetFrames(tabId, sessionsToo = true) {
  const mine = (k) => k.startsWith(`${tabId} `);
  for (const k of worlds.keys()) if (mine(k)) worlds.delete(k);
  for (const k of homes.keys()) if (mine(k)) homes.delete(k);
  if (sessionsToo) kids.delete(tabId);
}

// sessionOf is the session a frame of the tab is reached through:
// undefined for the page and the frames in its process.
function sessionOf(tabId, frame) {
  if (!frame) return undefined;
  const s = kids.get(tabId) && kids.get(tabId).get(frame);
  if (s) return s;
  const h = homes.get(place(tabId, frame));
  if (!h) throw frameGone();
  return h.session;
}

// world returns the engine's isolated world in the current document of
// the tab's frame ('' for the page), making it (and loading the engine
// there) when the document is new.
async function world(tabId, frame, fresh) {
  if (!engine) throw refuse('engine_missing', 'The extension lost the page engine; buddi sends it again.');
  const at = place(tabId, frame);
  if (!fresh && worlds.has(at)) return worlds.get(at);
  // A new document in the page: the old one's frames went with it.
  if (!frame && worlds.has(at)) forgetFrames(tabId, false);
  let session = sessionOf(tabId, frame);
  const frameId = frame || (await send(tabId, 'Page.getFrameTree')).frameTree.frame.id;
  let made;
  try {
    made = await send(tabId, 'Page.createIsolatedWorld', { frameId, worldName: WORLD }, session);
  } catch (e) {
    if (!frame) throw e;
    session = await moved(tabId, frame, session);
    made = await send(tabId, 'Page.createIsolatedWorld', { frameId, worldName: WORLD }, session).catch(() => {
      throw frameGone();
    });
  }
  const w = { id: made.executionContextId, session };
  const r = await send(tabId, 'Runtime.evaluate', { expression: `globalThis.__buddi = ${engine}; true`, contextId: w.id, returnByValue: true }, session);
  if (r.exceptionDetails) throw refuse('not_answering', 'The page engine did not load in the frame.');
  worlds.set(at, w);
  return w;
}

// moved waits a moment for a frame that just went to another process:
// Chrome announces its new session shortly after the navigation.
async function moved(tabId, frame, was) {
  for (let i = 0; i < 10; i++) {
    const s = kids.get(tabId) && kids.get(tabId).get(frame);
    if (s && s !== was) return s;
    await sleep(50);
  }
  throw frameGone();
}

// evaluate runs expression in the engine's world of a frame's document
// and returns its value (or, with byValue false, the remote object, in
// objectGroup) and the world. An expression that is a function's source,
// with args, is called with them instead.
async function evaluate(tabId, frame, expression, byValue = true, objectGroup = undefined, args = undefined) {
  for (let attempt = 0; ; attempt++) {
    const w = await world(tabId, frame, attempt > 0);
    let r;
    try {
      r = args
        ? await send(tabId, 'Runtime.callFunctionOn', { functionDeclaration: expression, executionContextId: w.id,
          arguments: args.map((value) => ({ value })), returnByValue: byValue, awaitPromise: true, objectGroup }, w.session)
        : await send(tabId, 'Runtime.evaluate', { expression, contextId: w.id, returnByValue: byValue, awaitPromise: true, objectGroup }, w.session);
    } catch (e) {
      // the document changed, or the frame moved to another process
      if (attempt === 0 && (frame || String(e.message || e).includes('context'))) continue;
      if (frame) throw frameGone();
      throw e;
    }
    if (r.exceptionDetails && attempt === 0 && /__buddi is not defined/.test(JSON.stringify(r.exceptionDetails))) continue;
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw refuse('not_answering', `The page script failed: ${(d.exception && d.exception.description) || d.text}`.slice(0, 300));
    }
    return { value: byValue ? r.result.value : r.result, w };
  }
}

// held says which frame each element of the array expr names (in the
// engine's world of frame) holds: its frame id, or '' for an element that
// holds none. Each frame can be read from then on. What Chrome said of an
// element is kept in the world (KNOWN), for as long as the element holds
// the same frame, so a page read again costs one call here.
async function held(tabId, frame, expr) {
  const known = await evaluate(tabId, frame, `(() => { const a = ${expr}; const m = globalThis.${KNOWN};
    return a && a.map((el) => { const k = m && el && m.get(el); return k && k.win === el.contentWindow ? k.id : null; }); })()`);
  const ids = known.value;
  if (!Array.isArray(ids)) return [];
  if (ids.every((id) => id !== null)) return ids;
  return describeHeld(tabId, frame, expr);
}

// KNOWN names the map, in the engine's world, from an element to the
// frame it holds (and that frame's window, to tell when it holds another).
const KNOWN = '__buddiFrames';

// describeHeld asks Chrome which frame each element of the array expr names
// holds, and keeps the answers in the world for held.
async function describeHeld(tabId, frame, expr) {
  const group = 'buddi-held';
  const { value: arr, w } = await evaluate(tabId, frame, expr, false, group);
  const on = (method, params) => send(tabId, method, params, w.session);
  try {
    if (!arr || arr.subtype !== 'array' || !arr.objectId) return [];
    const { result } = await on('Runtime.getProperties', { objectId: arr.objectId, ownProperties: true });
    const items = result.filter((p) => /^\d+$/.test(p.name)).sort((a, b) => a.name - b.name);
    const ids = await Promise.all(items.map(async (p) => {
      if (!p.value || p.value.subtype !== 'node' || !p.value.objectId) return '';
      const d = await on('DOM.describeNode', { objectId: p.value.objectId });
      const child = (d.node && d.node.frameId) || '';
      if (child) homes.set(place(tabId, child), { session: w.session, parent: frame });
      return child;
    }));
    await on('Runtime.callFunctionOn', { objectId: arr.objectId, arguments: [{ value: ids }], functionDeclaration:
      `function (ids) { const m = globalThis.${KNOWN} = globalThis.${KNOWN} || new WeakMap();
        this.forEach((el, i) => { if (el && ids[i]) m.set(el, { id: ids[i], win: el.contentWindow }); }); }` });
    return ids;
  } finally {
    on('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => {});
  }
}

// each calls fn (a function's source) in the engine's world of each frame
// of ids in turn, passing it what the call before gave (the first, value),
// and returns what each gave, or why it failed (the next call then gets
// what the last good one gave). An id '' is passed over.
async function each(tabId, ids, fn, value) {
  const out = [];
  let prev = value;
  for (const id of ids) {
    if (!id) {
      out.push(null);
      continue;
    }
    try {
      prev = (await evaluate(tabId, id, fn, true, undefined, [prev])).value;
      out.push({ value: prev });
    } catch (e) {
      out.push({ error: String(e.message || e).slice(0, 300) });
    }
  }
  return out;
}

// frameTree lists the tab's frames below its page, nested ones too: the
// page's process's own tree, with each out-of-process frame's tree (from
// its session) under its parent, in the order Chrome gives them. A
// frame's parent is '' for the page.
async function frameTree(tabId) {
  await attach(tabId);
  const root = (await send(tabId, 'Page.getFrameTree')).frameTree;
  const top = root.frame.id;
  const nodes = new Map([['', { children: [] }]]); // frame id ('' for the page) → its children
  // add records t, found in the process reached through inner, under
  // parent; home is the session t itself is reached through when it is
  // not out of process.
  const add = (t, parent, home, inner) => {
    const n = { id: t.frame.id, parent, url: t.frame.url + (t.frame.urlFragment || ''), children: [] };
    homes.set(place(tabId, n.id), { session: home, parent });
    nodes.set(n.id, n);
    if (nodes.has(parent)) nodes.get(parent).children.push(n);
    for (const c of t.childFrames || []) add(c, n.id, inner, inner);
  };
  for (const c of root.childFrames || []) add(c, '', undefined, undefined);
  for (const session of (kids.get(tabId) || new Map()).values()) {
    let t;
    try {
      t = (await send(tabId, 'Page.getFrameTree', {}, session)).frameTree;
    } catch {
      continue; // gone meanwhile
    }
    const parent = !t.frame.parentId || t.frame.parentId === top ? '' : t.frame.parentId;
    if (nodes.has(t.frame.id)) continue;
    let home;
    try {
      home = sessionOf(tabId, parent);
    } catch {
      continue; // its parent is not known: gone meanwhile
    }
    add(t, parent, home, session);
  }
  const out = [];
  const walk = (n) => {
    for (const c of n.children) {
      out.push({ id: c.id, parent: c.parent, url: c.url });
      walk(c);
    }
  };
  walk(nodes.get(''));
  return out;
}

// CDP_METHODS are the debugger commands the driver may send to a tab.
const CDP_METHODS = new Set(['Page.navigate', 'Page.stopLoading', 'Page.getNavigationHistory', 'Page.navigateToHistoryEntry',
  'Page.captureScreenshot', 'Input.dispatchMouseEvent', 'Input.dispatchKeyEvent']);

// DRIVER is the commands buddi's driver sends.
export const DRIVER = {
  // setup hands over the page engine (once per worker life).
  async setup(p) {
    engine = String(p.engine || '');
    worlds.clear(); // documents keep the old engine; frames stay known
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

  // keep makes a tab a page of the conversation opened (a popup, already
  // in the group) one of its background tabs: Chrome shows a tab opened by
  // a link in front, over the tab the owner was looking at, and names that
  // tab its opener; that tab is brought back to the front.
  async keep(p) {
    let tab = await owned(p.conv, p.tab);
    tab = await chrome.tabs.update(tab.id, { autoDiscardable: false });
    if (tab.active && tab.openerTabId !== undefined) {
      try {
        const was = await chrome.tabs.get(tab.openerTabId);
        if (was.windowId === tab.windowId && was.groupId !== tab.groupId) await chrome.tabs.update(was.id, { active: true });
      } catch {
        // the owner's tab closed meanwhile
      }
    }
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
  // the conversation's tabs; input may go to one of its out-of-process
  // frames instead, in that frame's own coordinates, so that Chrome need
  // not find the frame under the point. Input (every Input. command, and
  // whatever buddi marks as input) is refused while the owner looks at
  // the tab. With opened, the answer also lists the group's tabs as they
  // were just before the command (groupTabs).
  async cdp(p) {
    const method = String(p.method);
    if (!CDP_METHODS.has(method)) throw refuse('bad_input', `The extension does not send ${method.slice(0, 60)} to a tab.`);
    const tab = await live(p.conv, p.tab);
    if ((p.input || method.startsWith('Input.')) && (await watched(tab))) throw watching();
    const frame = frameOf(p);
    let session;
    if (frame) {
      if (!method.startsWith('Input.')) throw refuse('bad_input', 'Only input goes to a frame of its own.');
      session = kids.get(tab.id) && kids.get(tab.id).get(frame);
      if (!session) throw frameGone();
    }
    const before = p.opened ? await groupTabs(tab) : undefined;
    const result = await send(tab.id, method, p.params, session);
    return before ? { ...result, opened: before } : result;
  },

  // eval runs an expression in the engine's isolated world of the
  // document of the tab's page, or of one of its frames (never the page's
  // own world), and returns its value and the page's address. With held,
  // an expression naming an array of elements, run after it in the same
  // world, it also says which frame each of those holds (as frames does);
  // with each, a function's source, it then calls that in each of those
  // frames in turn, the first given the expression's value and every
  // later one what the one before gave (each). What an expression does
  // cannot be seen from here: it counts as input, for the looking-at rule,
  // when buddi marks it so (fill, select, submit, focus). With opened, the
  // answer lists the group's tabs as they were just before the expression
  // ran (groupTabs).
  async eval(p) {
    const tab = await live(p.conv, p.tab);
    if (p.input && (await watched(tab))) throw watching();
    const before = p.opened ? await groupTabs(tab) : undefined;
    const { value } = await evaluate(tab.id, frameOf(p), String(p.expr));
    const out = { value, url: tab.url || '' };
    if (before) out.opened = before;
    if (!p.held) return out;
    out.held = await held(tab.id, frameOf(p), String(p.held));
    if (p.each) out.each = await each(tab.id, out.held, String(p.each), value);
    return out;
  },

  // evalat is eval for an expression that acts in one of the tab's
  // frames on an element read while the tab's page was at p.page: when the
  // page is elsewhere now it answers {moved: true, url} having run nothing
  // (the expression checks the frame's own document itself). A build
  // without it answers not_supported, and buddi then checks first.
  async evalat(p) {
    const tab = await live(p.conv, p.tab);
    if ((tab.url || '') !== String(p.page)) return { moved: true, url: tab.url || '' };
    return DRIVER.eval(p);
  },

  // frames says which frame each element of the array held names (run
  // like eval's expressions, in the page or in a frame) holds: a frame id
  // to read with eval, or '' for none. Without held it lists every frame
  // of the tab, nested ones too: [{id, parent, url}].
  async frames(p) {
    const tab = await live(p.conv, p.tab);
    if (!p.held) return { frames: await frameTree(tab.id) };
    return { ids: await held(tab.id, frameOf(p), String(p.held)) };
  },

  // owner calls fn (a function's source) on the element that holds the
  // frame, in the engine's world of its parent's document, with args, and
  // returns its value, the parent frame ('' for the page), and whether
  // the frame is out of process (cdp then takes input for it): where a
  // frame sits in the page. Like eval, it counts as input when marked so.
  async owner(p) {
    const tab = await live(p.conv, p.tab);
    if (p.input && (await watched(tab))) throw watching();
    const frame = frameOf(p);
    const h = homes.get(place(tab.id, frame));
    if (!frame || !h) throw frameGone();
    let value;
    try {
      value = await onOwner(tab.id, frame, h.parent, String(p.fn), Array.isArray(p.args) ? p.args : []);
    } catch (e) {
      if (e.code) throw e;
      throw frameGone();
    }
    return { value, parent: h.parent, own: !!(kids.get(tab.id) && kids.get(tab.id).has(frame)) };
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

  // info says where a tab is, as Chrome knows it; with opened, the
  // group's tabs too (groupTabs).
  async info(p) {
    const tab = await owned(p.conv, p.tab);
    const out = { ...describe(tab), active: tab.active, watched: await watched(tab), status: tab.status };
    if (p.opened) out.opened = await groupTabs(tab);
    return out;
  },
};

const frameOf = (p) => String(p.frame || '');

// groupTabs lists the ids of the tabs in tab's group. A tab the page opens
// (a link to a new tab, window.open) joins its opener's group, so the
// group's tabs after an input that were not there just before it are the
// ones it opened: the driver asks with the input's first event (cdp, or
// the eval that submits a form) and with the read that follows it (eval,
// info). Chrome's own openerTabId
// does not tell: for a tab opened from a background tab it names the tab
// the owner is looking at.
async function groupTabs(tab) {
  if (tab.groupId === undefined || tab.groupId < 0) return [];
  return (await chrome.tabs.query({ groupId: tab.groupId })).map((t) => t.id);
}

// onOwner runs fn on the element holding frame, in parent's world.
async function onOwner(tabId, frame, parent, fn, args) {
  const w = (await evaluate(tabId, parent, 'true')).w;
  const { backendNodeId } = await send(tabId, 'DOM.getFrameOwner', { frameId: frame }, w.session);
  const { object } = await send(tabId, 'DOM.resolveNode', { backendNodeId, executionContextId: w.id }, w.session);
  try {
    const r = await send(tabId, 'Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: fn,
      arguments: args.map((value) => ({ value })), returnByValue: true }, w.session);
    if (r.exceptionDetails) throw refuse('not_answering', 'The page script failed on the frame\'s element.');
    return r.result.value;
  } finally {
    send(tabId, 'Runtime.releaseObject', { objectId: object.objectId }, w.session).catch(() => {});
  }
}

const watching = () => refuse('not_allowed', 'The owner is looking at this tab in the window they are using, so buddi does not type or click under their hands; try again when they have moved on.');

async function forgetTab(tabId) {
  forgetFrames(tabId);
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
  kids.clear();
  homes.clear();
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

// adopt keeps the child session Chrome gave for one of a tab's
// out-of-process frames, and follows the frames below it.
function adopt(tabId, params) {
  const t = params.targetInfo;
  if (!t || t.type !== 'iframe' || !attached.has(tabId)) return;
  if (!kids.has(tabId)) kids.set(tabId, new Map());
  kids.get(tabId).set(t.targetId, params.sessionId);
  worlds.delete(place(tabId, t.targetId));
  follow(tabId, params.sessionId);
}

// disown forgets a child session that ended, and the worlds reached
// through it.
function disown(tabId, session) {
  const m = kids.get(tabId);
  if (m) for (const [frame, s] of m) if (s === session) m.delete(frame);
  for (const [k, w] of worlds) if (w.session === session && k.startsWith(`${tabId} `)) worlds.delete(k);
}

// The debugger's events: child sessions of out-of-process frames come and
// go; a frame of a cast tab is acknowledged at once (Chrome paints nothing
// more until it is) and then passed on at most ten a second; a cast tab's
// navigations are passed on for buddi to check.
chrome.debugger.onEvent.addListener((src, method, params) => {
  const id = src.tabId;
  if (method === 'Target.attachedToTarget') return adopt(id, params);
  if (method === 'Target.detachedFromTarget') return disown(id, params.sessionId);
  if (!casts.has(id) || src.sessionId) return;
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
  forgetFrames(src.tabId);
  if (casts.delete(src.tabId)) emit('gone', src.tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  attached.delete(tabId);
  forgetFrames(tabId);
  if (casts.delete(tabId)) emit('gone', tabId);
});

// A worker Chrome stopped and started again has no socket: nothing it held
// is buddi's any more.
letGo();
