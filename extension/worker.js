// The buddi extension's service worker: it pairs with buddi, proves itself
// at every connection, and answers buddi's pings. It runs no command
// before both sides are proven. Its state lives in chrome.storage.local
// (address, token, which buddi) and chrome.storage.session (what the popup
// shows), so a worker Chrome stopped picks up where it was.

import { DRIVER, agentTabs, letGo, setEmitter } from './tabs.js';

const DEFAULT_ADDRESS = '127.0.0.1:7777';
const VERSION = chrome.runtime.getManifest().version;
const enc = new TextEncoder();

let ws = null;        // the socket, while one is open or opening
let nonce = null;     // this connection's hello nonce
let dialled = '';     // the address this connection dialled
let proven = false;   // buddi proved itself and said ready
let pairing = false;  // this connection asked to pair
let retry = 1000;     // the next quick reconnect after a drop, doubling to 30 s
const abandoned = new Set();

// The driver's events go out only on a proven connection.
setEmitter((name, tab, data) => {
  if (ws && proven && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'event', name, tab, data }));
});

const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const unb64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

// canonical writes an address as buddi names its own end of a socket:
// localhost is 127.0.0.1, so the address this extension dials is the one
// buddi's proof covers.
function canonical(address) {
  const a = String(address || '').trim().toLowerCase();
  return a.startsWith('localhost:') ? `127.0.0.1:${a.slice('localhost:'.length)}` : a;
}

async function local() {
  const s = await chrome.storage.local.get(['address', 'token', 'buddi']);
  return { address: canonical(s.address || DEFAULT_ADDRESS), token: s.token || '', buddi: s.buddi || '' };
}

async function show(fields) {
  await chrome.storage.session.set(fields);
}

// connect opens the socket if it should be open: with a token, or when
// the owner pressed Connect.
async function connect(pair = false) {
  if (ws && ws.readyState <= WebSocket.OPEN && !pair) return;
  const { address, token } = await local();
  if (!token && !pair) return;
  if (ws) ws.close();
  proven = false;
  pairing = pair && !token;
  const sock = new WebSocket(`ws://${address}/api/extension/socket`);
  ws = sock;
  dialled = address;
  let opened = false;
  sock.onopen = () => {
    opened = true;
    hello(sock);
  };
  sock.onmessage = (ev) => receive(sock, ev.data).catch((e) => sock.close(4000, String(e)));
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    proven = false;
    letGo(); // the agents' tabs are the owner's now
    show({ connected: false, code: '' });
    if (!opened && pairing) {
      show({ problem: `buddi at ${address} did not accept the connection: it is not running there, or it refuses this copy of the extension.` });
    }
    setTimeout(() => connect(), retry); // alarms and tab events wake a stopped worker
    retry = Math.min(retry * 2, 30000);
  };
}

function hello(sock) {
  nonce = crypto.getRandomValues(new Uint8Array(32));
  sock.send(JSON.stringify({ type: 'hello', nonce: b64(nonce), pair: pairing, build: VERSION }));
}

// transcript is what both sides' proofs of this connection cover (as
// messages/extwire.Proof has it): who proves, the address this extension
// dialled, its id, its nonce and buddi's.
function transcript(prover, theirs) {
  return enc.encode(['buddi-extension-proof/2', prover, dialled, chrome.runtime.id, b64(nonce), theirs].join('\n'));
}

async function keyOf(token, use) {
  const hash = await crypto.subtle.digest('SHA-256', enc.encode(token));
  return crypto.subtle.importKey('raw', hash, { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

// proves checks buddi's proof of this connection, keyed by our token's
// hash; a proof made for another address (a program passing the
// connection on) or another nonce fails.
async function proves(token, m) {
  if (!m.sig || !m.nonce || m.addr !== dialled) return false;
  return crypto.subtle.verify('HMAC', await keyOf(token, 'verify'), unb64(m.sig), transcript('buddi', m.nonce));
}

// proof is this extension's proof of the connection, sent with the token.
async function proof(token, theirs) {
  return b64(await crypto.subtle.sign('HMAC', await keyOf(token, 'sign'), transcript('extension', theirs)));
}

async function receive(sock, data) {
  if (ws !== sock) return;
  const m = JSON.parse(data);
  switch (m.type) {
    case 'code':
      await show({ code: m.code, codeExpires: m.expires, problem: '' });
      return;
    case 'paired':
      pairing = false;
      await chrome.storage.local.set({ token: m.token, buddi: m.buddi });
      await show({ code: '' });
      hello(sock);
      return;
    case 'proof': {
      const { token } = await local();
      if (!token || !(await proves(token, m))) {
        const elsewhere = m.addr && m.addr !== dialled ? ` It answered for ${String(m.addr).slice(0, 60)}: a program at ${dialled} may be passing the connection on.` : '';
        await show({ problem: `The buddi at this address could not prove it is the one this browser paired with.${elsewhere}` });
        sock.close(4001, 'buddi did not prove itself');
        return;
      }
      sock.send(JSON.stringify({ type: 'token', token, proof: await proof(token, m.nonce) }));
      return;
    }
    case 'ready':
      proven = true;
      retry = 1000;
      await chrome.storage.local.set({ buddi: m.buddi });
      await show({ connected: true, problem: '', code: '' });
      return;
    case 'ping':
      sock.send(JSON.stringify({ type: 'pong', seq: m.seq }));
      return;
    case 'command':
      if (proven) await command(sock, m);
      return;
    case 'abandon':
      if (proven) {
        abandoned.add(m.id);
        sock.send(JSON.stringify({ type: 'abandoned', id: m.id }));
      }
      return;
    case 'refused':
      if (m.error && m.error.code === 'not_paired') await chrome.storage.local.remove(['token', 'buddi']);
      await show({ problem: m.error ? m.error.message : '', code: '' });
      return;
    default:
      return; // notices and anything newer
  }
}

// command runs one of buddi's commands: status, and the browser driver's
// (tabs.js).
async function command(sock, m) {
  let reply;
  try {
    if (m.method === 'status') {
      reply = { result: { version: VERSION, tabs: await agentTabs() } };
    } else if (Object.hasOwn(DRIVER, m.method)) {
      reply = { result: await DRIVER[m.method](m.params || {}) };
    } else {
      reply = { error: { code: 'not_supported', message: `This extension does not know the command ${m.method}.` } };
    }
  } catch (e) {
    reply = { error: e && e.code ? { code: e.code, message: e.message } : { code: 'internal', message: String((e && e.message) || e) } };
  }
  if (abandoned.delete(m.id) || ws !== sock) return;
  sock.send(JSON.stringify({ type: 'reply', id: m.id, ...reply }));
}

async function forget() {
  if (ws && proven) ws.send(JSON.stringify({ type: 'forget' }));
  await chrome.storage.local.remove(['token', 'buddi']);
  await show({ connected: false, code: '', problem: '' });
  if (ws) ws.close();
}

// The popup's messages.
chrome.runtime.onMessage.addListener((m, sender, reply) => {
  if (sender.id !== chrome.runtime.id) return false;
  (async () => {
    if (m.type === 'connect') await connect(true);
    else if (m.type === 'forget') await forget();
    else if (m.type === 'address') {
      await chrome.storage.local.set({ address: canonical(m.address) });
      if (ws) ws.close();
      await connect(false);
    }
    reply({ ok: true });
  })();
  return true;
});

// The dashboard's one question, from a loopback page of the buddi this
// extension is aimed at only; another page learns only that address.
chrome.runtime.onMessageExternal.addListener((m, sender, reply) => {
  (async () => {
    const { address, token } = await local();
    let origin;
    try {
      origin = new URL(sender.origin || sender.url);
    } catch {
      reply({ ok: false });
      return;
    }
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(origin.hostname) && origin.protocol === 'http:';
    if (!loopback || !m || m.type !== 'buddi.status') {
      reply({ ok: false });
      return;
    }
    if (canonical(origin.host) !== address) {
      reply({ ok: false, error: 'other_address', address });
      return;
    }
    const s = await chrome.storage.session.get(['code', 'connected']);
    reply({ ok: true, version: VERSION, paired: !!token, connected: !!s.connected, code: s.code || '', address });
  })();
  return true;
});

// Waking events: the worker reconnects from each.
chrome.runtime.onStartup.addListener(() => connect());
chrome.runtime.onInstalled.addListener(() => {
  chrome.alarms.create('buddi', { periodInMinutes: 0.5 });
  connect();
});
chrome.alarms.onAlarm.addListener(() => connect());
chrome.tabs.onCreated.addListener(() => connect());
chrome.tabs.onActivated.addListener(() => connect());
chrome.tabs.onUpdated.addListener(() => connect());
chrome.alarms.get('buddi').then((a) => a || chrome.alarms.create('buddi', { periodInMinutes: 0.5 }));
connect();
