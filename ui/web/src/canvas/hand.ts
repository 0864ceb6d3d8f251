// The remote hand's live view: while the owner has a page taken over, a
// canvas shows the page's picture (one binary frame at a time over the hand
// socket, drawn with createImageBitmap and acked once drawn) and takes the
// owner's pointer, touch, wheel and keys, mapped back to page coordinates
// through the frame's header. Moves go at most every 33 ms, always the
// latest; a press, a release, a wheel step or a key goes at once with its
// own position. Nothing typed is kept here either: a key is sent and
// forgotten, and the phone keyboard's field is emptied as it fills.
//
// On a touch screen the view fills the screen with its bar on top, and the
// page is laid out at the screen's size while this tab drives (so it reads
// at its natural size); gestures are the thumb's (gestures.ts).
//
// One hand at a time, moved on purpose: only the tab that pressed Take
// over (or drove before a reload) attaches by itself. Any other tab showing
// the conversation says whether another tab drives, and takes the hand
// only when the owner presses Drive from here.
import { csrfToken, post } from "../api";
import { h } from "../dom";
import type { SessionInfo } from "../types";
import { gestures, type Send } from "./gestures";
import type { Header, LiveView } from "./view";

const HEADER = 36;
const KEYS = new Set(["Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowUp", "ArrowDown", "ArrowLeft",
  "ArrowRight", "Home", "End", "PageUp", "PageDown", "Shift", "Control", "Alt", "Meta"]);

function header(buf: ArrayBuffer): Header | null {
  if (buf.byteLength < HEADER) return null;
  const v = new DataView(buf);
  if (v.getUint8(0) !== 1) return null;
  return { step: v.getUint8(1), seq: v.getUint32(2, true), time: v.getFloat64(6, true),
    width: v.getUint16(14, true), height: v.getUint16(16, true),
    scrollX: v.getFloat32(26, true), scrollY: v.getFloat32(30, true) };
}

// The conversations whose take-over this tab asked for: their hand
// attaches here by itself. A tab that drove keeps its attachment across a
// reload (sessionStorage), to take its own place again.
const mine = new Set<string>();
const attachmentKey = (conv: string) => "buddi.hand." + conv;

// claimHand marks conv's next take-over as this tab's own.
export function claimHand(conv: string): void { mine.add(conv); }

// touchScreen says whether this screen is driven by a finger.
export const touchScreen = (): boolean => window.matchMedia("(pointer: coarse)").matches;

const VIEW_MIN = 120;
const VIEW_MAX = 4096;
const side = (n: number) => Math.max(VIEW_MIN, Math.min(VIEW_MAX, Math.round(n)));

// handView drives s's page; when this browser cannot paint, it says so at once.
export function handView(first: SessionInfo, said: HTMLElement): LiveView {
  const conv = first.conversation;
  let s = first;
  const touch = touchScreen();
  const cv: HTMLCanvasElement = h("canvas", { class: "hand-canvas", tabindex: "0", "aria-label": "The page you are driving" });
  const keys: HTMLInputElement = h("input", { class: "hand-keys", type: "text", autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", "aria-label": "Type on the page", placeholder: "Type here: each key goes to the page" });
  const status = h("p", { class: "hand-status", role: "status" }); // over the picture, which it freezes
  let giving = false;
  const give: HTMLButtonElement = h("button", { type: "button", class: "primary", onclick: () => {
    giving = true;
    give.disabled = true;
    send({ t: "give" }); // behind every input sent before it
  } }, "Give it back");
  const kb: HTMLButtonElement = h("button", { type: "button", "aria-pressed": "false", onclick: () => toggleKeyboard() }, "Keyboard");
  const bar = h("div", { class: "hand-bar" }, h("span", {}, "You are driving. Nothing you type here is kept."), give, kb);
  const stage = h("div", { class: "hand-stage" }, status, cv);
  const drive: HTMLButtonElement = h("button", { type: "button", class: "primary", onclick: () => void driveHere() }, "Drive from here");
  const offer = h("div", { class: "hand-offer", role: "group", "aria-label": "Drive the page" }, h("p", {}), drive);
  const el = h("div", { class: "hand" }, bar, stage, keys, offer);
  const g = cv.getContext("2d");
  let ws: WebSocket | null = null;
  let last: Header | null = null;
  let ended = false;
  let attached = sessionStorage.getItem(attachmentKey(conv)) ?? ""; // sent again to reconnect after a drop
  let painted = 0;
  let told = ""; // what the offer says when the socket refused this tab
  let screenW = 0;

  const say = (text: string, again?: { label: string; run: () => void }) => {
    status.replaceChildren(text);
    if (again) status.append(" ", h("button", { type: "button", onclick: again.run }, again.label));
  };
  const send: Send = (m) => { if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); };

  // driving says whether this tab holds (or is getting) the hand: the bar
  // and the picture show, full screen on a touch screen.
  const driving = (on: boolean) => {
    bar.hidden = stage.hidden = !on;
    offer.hidden = on;
    el.classList.toggle("full", on && touch);
    el.closest(".card")?.classList.toggle("driving", on); // the bar's Give it back is the card's resume
    stage.classList.toggle("fitted", on && touch);
    document.body.classList.toggle("hand-open", on && touch);
    thumb.layout();
    if (!on) showOffer();
  };
  const showOffer = () => {
    const text = told || (s.driving
      ? "Another tab is driving this page. Press Drive from here to take the hand to this one."
      : "The page is taken over and no tab is driving it. Press Drive from here to drive it here.");
    offer.firstElementChild!.textContent = text;
  };

  const paint = async (buf: ArrayBuffer) => {
    const hd = header(buf);
    if (!hd || !g) return;
    try {
      const bmp = await createImageBitmap(new Blob([buf.slice(HEADER)], { type: "image/jpeg" }));
      if (cv.width !== bmp.width || cv.height !== bmp.height) { cv.width = bmp.width; cv.height = bmp.height; }
      g.drawImage(bmp, 0, 0);
      bmp.close();
      const resized = !last || last.width !== hd.width || last.height !== hd.height;
      last = hd;
      painted++;
      cv.dataset.painted = String(painted);
      cv.dataset.page = `${hd.width}x${hd.height}`;
      cv.dataset.scroll = `${Math.round(hd.scrollX)}x${Math.round(hd.scrollY)}`;
      if (resized) thumb.layout();
      if (painted === 1) say("");
    } finally {
      send({ t: "ack", seq: hd.seq });
    }
  };

  // screen is the stage's size, for the page's layout on a touch screen.
  const screen = (): { w: number; h: number } | null => {
    if (!touch) return null;
    const r = stage.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? { w: side(r.width), h: side(r.height) } : null;
  };

  const open = (take = false) => {
    if (!g || typeof createImageBitmap !== "function") {
      say("This browser cannot paint the page live; use the computer buddi runs on, or another browser.");
      return;
    }
    ws?.close();
    ended = false;
    told = "";
    driving(true);
    say("Connecting…");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = new WebSocket(`${proto}://${location.host}/api/browser/hand?conversation=${encodeURIComponent(conv)}`);
    sock.binaryType = "arraybuffer";
    ws = sock;
    sock.onopen = () => {
      const sc = screen();
      screenW = sc?.w ?? 0;
      sock.send(JSON.stringify({ t: "csrf", token: csrfToken(), resume: attached, take, ...(sc ?? {}) }));
    };
    sock.onmessage = (ev) => {
      if (ev.data instanceof ArrayBuffer) return void paint(ev.data);
      try {
        const m = JSON.parse(String(ev.data)) as { type?: string; id?: string; error?: { code?: string; message?: string } };
        if (m.type === "attached") {
          attached = m.id ?? "";
          sessionStorage.setItem(attachmentKey(conv), attached);
        }
        if (m.type === "end") ending(m.error?.code ?? "", m.error?.message ?? "The hand ended.");
      } catch { /* not ours */ }
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      if (!ended) say("Connection lost.", { label: "Reconnect", run: () => open() });
    };
  };

  // ending shows why the hand let go of this tab: moved to another tab or
  // never had (the offer to take it), or ended (take over again).
  const ending = (code: string, message: string) => {
    ended = true;
    mine.delete(conv);
    sessionStorage.removeItem(attachmentKey(conv));
    attached = "";
    if (code === "hand_busy" || code === "hand_moved") {
      told = message;
      driving(false);
      return;
    }
    driving(false);
    told = message;
    showOffer();
  };

  // driveHere takes the hand to this tab: a take-over whose hand ended
  // gets a new one first (taking over again keeps the page as it is).
  const driveHere = async () => {
    drive.disabled = true;
    try {
      await post("/api/browser/takeover", { conversation: conv });
      claimHand(conv);
      open(true);
    } catch (e) {
      told = e instanceof Error ? e.message : String(e);
      showOffer();
    } finally {
      drive.disabled = false;
    }
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
  const typing = () => kb.getAttribute("aria-pressed") === "true";
  const thumb = gestures(stage, cv, { at, send, page: () => last, afterTap: () => { if (typing()) keys.focus(); } });

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
    const on = !typing();
    kb.setAttribute("aria-pressed", on ? "true" : "false");
    el.classList.toggle("typing", on);
    if (on) keys.focus(); else keys.blur();
  };

  // A phone turned (its width changed): the page is laid out again.
  let resizing = 0;
  const resized = () => {
    clearTimeout(resizing);
    resizing = window.setTimeout(() => {
      thumb.layout();
      const sc = screen();
      if (sc && ws && Math.abs(sc.w - screenW) > 2) {
        screenW = sc.w;
        send({ t: "view", ...sc });
      }
    }, 150);
  };
  window.addEventListener("resize", resized);
  // The stage got its size (a panel that was closed when the hand began
  // opened; the bar wrapped): the picture is sized to it, and a touch
  // screen whose size buddi did not have yet lays the page out for it.
  const watch = typeof ResizeObserver === "function" ? new ResizeObserver(() => resized()) : null;
  watch?.observe(stage);

  cv.addEventListener("keydown", (e) => key("keydown", e));
  cv.addEventListener("keyup", (e) => key("keyup", e));
  cv.addEventListener("contextmenu", (e) => e.preventDefault());
  keys.addEventListener("input", typed);
  keys.addEventListener("keydown", keyField);
  keys.addEventListener("keyup", keyField);

  if (mine.has(conv) || attached) {
    driving(true);
    say("Connecting…");
    requestAnimationFrame(() => open()); // once in the page, where the stage has its size
  } else {
    driving(false);
  }
  return {
    el,
    update: (next: SessionInfo) => { s = next; if (offer.hidden === false) showOffer(); },
    close: () => {
      if (giving) said.textContent = `Given back: ${s.agent} has the browser again and must observe before acting.`;
      el.closest(".card")?.classList.remove("driving");
      ended = true;
      sessionStorage.removeItem(attachmentKey(conv)); // the take-over is over, or this page left it
      clearTimeout(resizing);
      window.removeEventListener("resize", resized);
      watch?.disconnect();
      document.body.classList.remove("hand-open");
      thumb.stop();
      const sock = ws;
      ws = null;
      sock?.close();
    },
  };
}
