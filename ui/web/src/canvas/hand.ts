// The remote hand's live view: while the owner has a page taken over, a
// canvas shows the page's picture (one binary frame at a time over the hand
// socket, drawn with createImageBitmap and acked once drawn) and takes the
// owner's pointer, touch, wheel and keys, mapped back to page coordinates
// through the frame's header. Moves go at most every 33 ms, always the
// latest; a press, a release, a wheel step or a key goes at once with its
// own position. Nothing typed is kept here either: a key is sent and
// forgotten, and the phone keyboard's field is emptied as it fills.
import { csrfToken } from "../api";
import { h } from "../dom";
import type { SessionInfo } from "../types";
import type { LiveView } from "./browserTab";

const HEADER = 36;
const MOVE_EVERY = 33;
const KEYS = new Set(["Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft",
  "ArrowRight", "Home", "End", "PageUp", "PageDown", "Shift", "Control", "Alt", "Meta"]);
const BUTTONS = ["left", "middle", "right"];

interface Header { seq: number; step: number; time: number; width: number; height: number }

function header(buf: ArrayBuffer): Header | null {
  if (buf.byteLength < HEADER) return null;
  const v = new DataView(buf);
  if (v.getUint8(0) !== 1) return null;
  return { step: v.getUint8(1), seq: v.getUint32(2, true), time: v.getFloat64(6, true),
    width: v.getUint16(14, true), height: v.getUint16(16, true) };
}

// handView drives s's page; when this browser cannot paint, it says so at once.
export function handView(s: SessionInfo): LiveView {
  const conv = s.conversation;
  const cv: HTMLCanvasElement = h("canvas", { class: "hand-canvas", tabindex: "0", "aria-label": "The page you are driving" });
  const keys: HTMLInputElement = h("input", { class: "hand-keys", type: "text", autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", "aria-label": "Type on the page" });
  const status = h("p", { class: "hand-status", role: "status" }, "Connecting…");
  const give: HTMLButtonElement = h("button", { type: "button", class: "primary", onclick: () => send({ t: "give" }) }, "Give it back");
  const kb: HTMLButtonElement = h("button", { type: "button", "aria-pressed": "false", onclick: () => toggleKeyboard() }, "Keyboard");
  const bar = h("div", { class: "hand-bar" }, h("span", {}, "You are driving. Nothing you type here is kept."), give, kb);
  const el = h("div", { class: "hand" }, bar, status, h("div", { class: "hand-stage" }, cv), keys);
  const g = cv.getContext("2d");
  let ws: WebSocket | null = null;
  let last: Header | null = null;
  let ended = false;
  let attached = ""; // this tab's attachment, sent again to reconnect after a drop
  let painted = 0;
  let pending: { x: number; y: number } | null = null;
  let timer = 0;

  const say = (text: string, reconnect = false) => {
    status.replaceChildren(text);
    if (reconnect) status.append(" ", h("button", { type: "button", onclick: () => open() }, "Reconnect"));
  };
  const send = (m: Record<string, unknown>) => { if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); };

  const paint = async (buf: ArrayBuffer) => {
    const hd = header(buf);
    if (!hd || !g) return;
    try {
      const bmp = await createImageBitmap(new Blob([buf.slice(HEADER)], { type: "image/jpeg" }));
      if (cv.width !== bmp.width || cv.height !== bmp.height) { cv.width = bmp.width; cv.height = bmp.height; }
      g.drawImage(bmp, 0, 0);
      bmp.close();
      last = hd;
      painted++;
      cv.dataset.painted = String(painted);
      cv.dataset.page = `${hd.width}x${hd.height}`;
      if (painted === 1) say("");
    } finally {
      send({ t: "ack", seq: hd.seq });
    }
  };

  const open = () => {
    if (!g || typeof createImageBitmap !== "function") {
      say("This browser cannot paint the page live; use the computer buddi runs on, or another browser.");
      return;
    }
    ws?.close();
    ended = false;
    say("Connecting…");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = new WebSocket(`${proto}://${location.host}/api/browser/hand?conversation=${encodeURIComponent(conv)}`);
    sock.binaryType = "arraybuffer";
    ws = sock;
    sock.onopen = () => sock.send(JSON.stringify({ t: "csrf", token: csrfToken(), resume: attached }));
    sock.onmessage = (ev) => {
      if (ev.data instanceof ArrayBuffer) return void paint(ev.data);
      try {
        const m = JSON.parse(String(ev.data)) as { type?: string; id?: string; error?: { message?: string } };
        if (m.type === "attached") attached = m.id ?? "";
        if (m.type === "end") { ended = true; say(m.error?.message ?? "The hand ended."); }
      } catch { /* not ours */ }
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      if (!ended) say("Connection lost.", true);
    };
  };

  // at maps a client point to page coordinates through the last header.
  const at = (cx: number, cy: number) => {
    if (!last) return null;
    const r = cv.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const x = Math.min(Math.max((cx - r.left) / r.width, 0), 1) * last.width;
    const y = Math.min(Math.max((cy - r.top) / r.height, 0), 1) * last.height;
    return { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
  };
  const flushMove = () => {
    timer = 0;
    if (pending) { send({ t: "move", ...pending }); pending = null; timer = window.setTimeout(flushMove, MOVE_EVERY); }
  };
  const move = (e: PointerEvent) => {
    const p = at(e.clientX, e.clientY);
    if (!p) return;
    pending = p;
    if (!timer) flushMove();
  };
  const press = (kind: "down" | "up", e: PointerEvent) => {
    const p = at(e.clientX, e.clientY);
    if (!p) return;
    pending = null; // the press carries its own position
    e.preventDefault();
    if (kind === "down") { cv.focus(); cv.setPointerCapture(e.pointerId); }
    send({ t: kind, ...p, b: BUTTONS[e.button] ?? "left" });
  };
  const wheel = (e: WheelEvent) => {
    const p = at(e.clientX, e.clientY);
    if (!p) return;
    e.preventDefault();
    const k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const clamp = (d: number) => Math.max(-5000, Math.min(5000, d * k));
    pending = null;
    send({ t: "wheel", ...p, dx: clamp(e.deltaX), dy: clamp(e.deltaY) });
  };
  const key = (kind: "keydown" | "keyup", e: KeyboardEvent) => {
    if (KEYS.has(e.key)) {
      e.preventDefault();
      send({ t: kind, k: e.key });
    } else if (kind === "keydown" && [...e.key].length === 1 && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      send({ t: "char", k: e.key });
    }
  };
  const typed = () => {
    for (const c of keys.value) send({ t: "char", k: c });
    keys.value = ""; // nothing typed is kept, here either
  };
  const keyField = (e: KeyboardEvent) => {
    if (KEYS.has(e.key)) { e.preventDefault(); send({ t: e.type as string, k: e.key }); }
  };
  const toggleKeyboard = () => {
    const on = kb.getAttribute("aria-pressed") !== "true";
    kb.setAttribute("aria-pressed", on ? "true" : "false");
    el.classList.toggle("typing", on);
    if (on) keys.focus(); else keys.blur();
  };

  cv.addEventListener("pointermove", move);
  cv.addEventListener("pointerdown", (e) => press("down", e));
  cv.addEventListener("pointerup", (e) => press("up", e));
  cv.addEventListener("wheel", wheel, { passive: false });
  cv.addEventListener("keydown", (e) => key("keydown", e));
  cv.addEventListener("keyup", (e) => key("keyup", e));
  cv.addEventListener("contextmenu", (e) => e.preventDefault());
  keys.addEventListener("input", typed);
  keys.addEventListener("keydown", keyField);
  keys.addEventListener("keyup", keyField);
  open();
  return {
    el,
    close: () => {
      ended = true;
      if (timer) clearTimeout(timer);
      const sock = ws;
      ws = null;
      sock?.close();
    },
  };
}
